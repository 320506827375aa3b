// The pad's decision of what to ask, from the frames it got and the commands it sent.
//
// A pure reducer (no DOM, no clock, no storage), so `node --test` feeds it recorded frame
// sequences (tests/js/). The server counts acks and views on one sequence (the game's
// commands, `Game.seq`): an ack's `seq` is the number of the view that shows its command's
// step, also after the host took a command back. The pad only waits for a view it is sure to
// get; a phone that still shows nothing while its seat is awaited tells the server what it
// shows (`showing`), and the server sends the whole view again (PROTOCOL.md).

/** @typedef {import("./frames.js").ViewFrame} ViewFrame */

/**
 * A frame the pad folds, or its own note that it sent a command.
 * @typedef {ViewFrame
 *   | import("./frames.js").AckFrame
 *   | import("./frames.js").ErrorFrame
 *   | {type: "sent", id: string, kind: string}
 *   | {type: string, id?: string | null}} Message
 */

/**
 * @typedef {object} Asking what the pad asks, folded from the frames and its sends
 * @property {ViewFrame | null} frame the last view
 * @property {string | null} sending the id of the command in flight
 * @property {string | null} sentKind its kind
 * @property {{kind: string | null, seq: number} | null} answered the question just answered,
 *   hidden until the view of its ack's seq
 */

/**
 * The state before any frame.
 * @returns {Asking}
 */
export function initial() {
  return { frame: null, sending: null, sentKind: null, answered: null };
}

/**
 * The state after one message: a frame from the server (`view`, `ack`, `error`) or the pad's
 * own `{type: "sent", id, kind}` when it sends a command. Other messages change nothing.
 * @param {Asking} state
 * @param {Message | null | undefined} msg
 * @returns {Asking}
 */
export function reduce(state, msg) {
  switch (msg?.type) {
    case "view": {
      const view = /** @type {ViewFrame} */ (msg);
      const before = state.frame;
      let answered = state.answered;
      // A view that shows the acknowledged move, a whole new history (an undo, a reconnect,
      // a resend) or another game ends the "already answered" guard.
      if (answered && (seqOf(view) >= answered.seq || view.history || view.game?.id !== before?.game?.id)) answered = null;
      return { ...state, frame: view, answered };
    }
    case "sent": {
      const sent = /** @type {{type: "sent", id: string, kind: string}} */ (msg);
      return { ...state, sending: sent.id, sentKind: sent.kind };
    }
    case "ack":
      if (!state.sending || msg.id !== state.sending) return state;
      // The ack comes before the view that shows our move: views in between (another
      // player's move) still list the question and must not offer it again.
      return { ...state, sending: null, answered: { kind: state.sentKind, seq: seqOf(/** @type {{seq: number}} */ (msg)) } };
    case "error":
      // A refusal of our command (or one that names no command, e.g. rate limited).
      if (state.sending && (msg.id === state.sending || !msg.id)) return { ...state, sending: null };
      return state;
    default:
      return state;
  }
}

/**
 * The kinds of question the pad asks now, in the order the view lists them: the seat's
 * pending decisions, less the one just answered while the view that shows it is due. A
 * question whose answer is in flight stays (drawn as "sending"). `held`: the show's beats
 * hold every question while the table reads a result.
 * @param {Asking} state
 * @param {boolean} [held]
 * @returns {string[]}
 */
export function asks(state, held = false) {
  const frame = state.frame;
  if (held || !frame) return [];
  /** @type {string[]} */
  const kinds = [];
  for (const p of frame.you?.pending || []) {
    if (kinds.includes(p.type)) continue;
    const a = state.answered;
    if (a && !state.sending && p.type === a.kind && seqOf(frame) < a.seq) continue;
    kinds.push(p.type);
  }
  return kinds;
}

/**
 * What the pad tells the server it shows (sent when it changes).
 * @param {Asking} state
 * @param {string[]} shown
 * @param {boolean} held
 */
export function report(state, shown, held) {
  return { type: "showing", seq: seqOf(state.frame), asks: shown, held: Boolean(held) };
}

/** @param {{seq?: number} | null | undefined} frame */
function seqOf(frame) {
  return Number(frame?.seq) || 0;
}
