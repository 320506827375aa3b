// The show on a screen: which beat of the current step is up (from the frame's `show`: the
// step's beats with their seconds and how far the server's show is into them), the view as it
// stood at that beat (markers walk, cubes land one station at a time), and short sounds made
// with the Web Audio API (no audio files). The server decides when a step comes; this only
// walks through the beats of the step it sent, on the screen's own clock.

const REDUCED = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export class Beat {
  constructor() {
    this.step = null;
    this.beats = [];
    this.start = 0; // performance.now() at which the step's first beat began
    this.previous = null; // the view before this step (to replay its moves beat by beat)
    this.events = []; // the step's events (when the step arrived while we watched)
    this.frozen = null; // seconds into the step where a paused replay holds it (null: running)
  }

  /** A frame came: a new step (remember the view before it and its events), or the same one. */
  update(frame, previousView) {
    const show = frame.show;
    if (!show) {
      this.step = null;
      this.beats = [];
      this.frozen = null;
      return false;
    }
    const fresh = show.step !== this.step;
    if (fresh) {
      this.previous = frame.reason === "command" ? previousView : null;
      this.events = frame.reason === "command" ? frame.events || [] : [];
    }
    this.step = show.step;
    this.beats = show.beats || [];
    this.start = performance.now() - (show.elapsed || 0) * 1000;
    this.more = Boolean(show.more);
    this.frozen = show.paused ? show.elapsed || 0 : null; // a replay's pause (the live show never pauses)
    return fresh;
  }

  /** Seconds since the step began. */
  elapsed() {
    if (this.frozen !== null) return this.frozen;
    return (performance.now() - this.start) / 1000;
  }

  total() {
    return this.beats.reduce((s, b) => s + (b.seconds || 0), 0);
  }

  /** Index of the beat up now (-1: none, the step is read), and seconds into it. */
  current() {
    let t = this.elapsed();
    for (let i = 0; i < this.beats.length; i += 1) {
      const s = this.beats[i].seconds || 0;
      if (t < s) return { index: i, into: t, left: s - t };
      t -= s;
    }
    return { index: -1, into: 0, left: 0 };
  }

  /** Seconds until the show moves on (the whole step's hold). */
  left() {
    return Math.max(0, this.total() - this.elapsed());
  }

  active() {
    return this.current().index >= 0;
  }

  /** How far the final scoring (R7) has got on this screen, from the server's beats:
   * `started` once its first line is up, `turned` the players whose lines are shown (lowest
   * total first, as the beats come), `crowned` once the winner's beat is up. A screen that
   * comes after the step sees it all. Before the game is over: nothing started. */
  finale(view) {
    const order = view?.seats || Object.keys(view?.players || {});
    if (!view?.finished) return { started: false, turned: [], crowned: false };
    const cur = this.current();
    const endBeats = this.beats.some((b) => b.kind === "final_line" || b.kind === "winner");
    if (cur.index < 0 || !endBeats) return { started: true, turned: order, crowned: true };
    const upto = this.beats.slice(0, cur.index + 1);
    const turned = upto.filter((b) => b.kind === "final_line").map((b) => b.player);
    const crowned = upto.some((b) => b.kind === "winner");
    return { started: turned.length > 0 || crowned, turned, crowned };
  }

  /** `view` as the screens show it while the last step's stations are still up: the game is
   * not over on screen (nor won) before its final scoring starts. */
  beforeFinale(view) {
    if (!view?.finished || this.finale(view).started) return view;
    return { ...view, finished: false, winners: [] };
  }

  /** How many of the step's last events are not told yet (stations still to come): the log
   * only runs as far as the beat that is up (the same rule as companion/table/show.py told). */
  hiddenTail() {
    const cur = this.current();
    if (cur.index < 0 || !this.events.length) return 0;
    const upto = this.beats.slice(0, cur.index + 1);
    const later = this.beats.slice(cur.index + 1);
    const done = upto.filter((b) => b.kind === "station").length;
    const laterNotes = later.some((b) => b.kind !== "station" && b.kind !== "last_round");
    let seen = 0;
    for (let i = 0; i < this.events.length; i += 1) {
      const type = this.events[i].type;
      if (type === "ranking") seen += 1;
      // The next station starts with its cards turned (revealed) or, with dice, its rolls:
      // told with its own beat, or (waiting for a decision or dice) once the step is read.
      const nextStation = seen >= done && ["revealed", "first_cards_revealed", "dice_choices", "rolled"].includes(type);
      if (seen > done || nextStation) return this.events.length - i;
      if (laterNotes && ["round_ended", "final_scoring"].includes(type)) return this.events.length - i;
    }
    return 0;
  }

  /** The view as it stood when the beat that is up began: the view before this step with the
   * step's events told so far replayed onto it (scores, track, pyramid, huts, dice, cubes,
   * figure, old man; the round's own fields until the next round is told), markers walking
   * box by box in the first moments of a station. A screen that came in mid-step (no view
   * before) shows the step's end. */
  staged(view) {
    const cur = this.current();
    if (!view || !this.previous || cur.index < 0 || !this.events.length) return view;
    const beat = this.beats[cur.index];
    const told = this.events.slice(0, this.events.length - this.hiddenTail());
    const walkingNow = beat.kind === "station" && cur.into < walkSeconds() && !REDUCED();
    if (told.length === this.events.length && !walkingNow) return view;
    const prev = this.previous;
    const newRound = told.some((e) => e.type === "round_started");
    const hidden = told.length < this.events.length;
    // While part of the step is still to come, the next station's cards, its dice window and
    // the decisions it asks wait too: nobody is asked anything while the table reads.
    const later = hidden ? { ...pick(prev, STEP_FIELDS), pending: [] } : {};
    const base = newRound ? { ...view, ...later } : { ...view, ...pick(prev, ROUND_FIELDS), ...later };
    const track = Object.fromEntries(Object.entries(prev.track || {}).map(([b, st]) => [b, [...st]]));
    const pyramid = (prev.pyramid || []).map((row) => [...row]);
    const players = Object.fromEntries(
      Object.entries(view.players || {}).map(([p, ps]) => [p, { ...ps, ...pick(prev.players?.[p] || {}, PLAYER_FIELDS) }]),
    );
    let chocolatl = prev.chocolatl;
    let oldMan = prev.old_man;
    let lastRound = prev.last_round;
    let lastReason = prev.last_round_reason;
    // The scored events of the station that is up walk; the ranking that starts it is the last told.
    const lastRanking = told.map((e) => e.type).lastIndexOf("ranking");
    const walking = [];
    told.forEach((ev, i) => {
      const ps = players[ev.player];
      if (ev.type === "scored" && ps && ev.from !== undefined) {
        let to = ev.score;
        if (walkingNow && i > lastRanking) {
          const dist = Math.abs(ev.score - ev.from);
          to = ev.from + Math.sign(ev.score - ev.from) * Math.min(dist, Math.floor(cur.into / 0.12));
          if (to !== ev.score) walking.push(ev.player);
        }
        if (to !== ps.score) move(track, ev.player, ps.score, to);
        ps.score = to;
      } else if (ev.type === "cube" && ps) {
        ps.cubes_used = (ps.cubes_used || 0) + 1;
        if (ev.row !== null && ev.row !== undefined && pyramid[ev.row]) pyramid[ev.row][ev.cell] = ev.player;
      } else if (ev.type === "hut" && ps) ps.huts = ev.huts;
      else if (ev.type === "die" && ps) ps.dice = ev.dice;
      else if (ev.type === "figure") chocolatl = ev.player;
      else if (ev.type === "old_man") oldMan = ev.player;
      else if (ev.type === "last_round") {
        lastRound = true;
        lastReason = ev.reason;
      } else if (ev.type === "ranking") {
        for (const e of ev.entries || []) {
          if (players[e.player] && e.dice?.length) players[e.player].dice -= e.dice.length; // R3.2
        }
      }
    });
    if (newRound) return { ...base, track, pyramid, players, walking };
    return { ...base, track, pyramid, players, walking, chocolatl, old_man: oldMan, last_round: lastRound, last_round_reason: lastReason };
  }
}

// What belongs to the round (shown as before until the next round is told) and to a player.
const ROUND_FIELDS = ["round", "mode", "returning", "harvest", "improvements", "profile"];
const PLAYER_FIELDS = ["score", "huts", "dice", "cubes_used"];
const STEP_FIELDS = ["phase", "step", "revealed", "dice_window", "decision", "projection"];

function pick(obj, keys) {
  return Object.fromEntries(keys.filter((k) => k in obj).map((k) => [k, obj[k]]));
}

function walkSeconds() {
  return REDUCED() ? 0 : 1.5;
}

/** Move a marker from box `from` to the top of box `to` (R6.1: a moved marker goes on top). */
function move(track, player, from, to) {
  const stack = track[String(from)];
  if (stack) {
    const i = stack.indexOf(player);
    if (i >= 0) stack.splice(i, 1);
    if (!stack.length) delete track[String(from)];
  }
  (track[String(to)] ||= []).push(player);
}

// ---------- sound ----------

const TUNES = {
  bids_in: [[523, 0, 0.12], [659, 0.12, 0.12], [784, 0.24, 0.2]],
  reveal: [[440, 0, 0.09], [660, 0.08, 0.16]],
  tie: [[392, 0, 0.14], [392, 0.18, 0.14], [523, 0.36, 0.22]],
  last_round: [[330, 0, 0.3], [294, 0.32, 0.3], [262, 0.64, 0.5]],
  winner: [[523, 0, 0.15], [659, 0.15, 0.15], [784, 0.3, 0.15], [1047, 0.45, 0.5]],
  // Phones only: asked for a decision, and the blip that says the phone's sound is on.
  your_turn: [[880, 0, 0.1], [1175, 0.12, 0.18]],
  sound_on: [[660, 0, 0.12]],
};

/** The sound of a step's first beat, when the step came while the screen watched: the bids
 * are in and the cards turn over. */
export function stepSound(frame) {
  return (frame.events || []).some((e) => e.type === "revealed" || e.type === "first_cards_revealed") ? "bids_in" : null;
}

/** The sound of a beat when it comes up (a station's result, a tie, the last round, the winner). */
export function beatSound(b) {
  if (b?.kind === "decision") return "reveal";
  if (b?.kind === "station") return b.ranking?.ties?.length ? "tie" : "reveal";
  if (b?.kind === "last_round") return "last_round";
  if (b?.kind === "winner") return "winner";
  return null;
}

/** Short tones for the show's moments; mute and volume are kept per device. */
export class Sound {
  constructor(key, defaultOn) {
    this.key = key;
    let saved = null;
    try {
      saved = JSON.parse(localStorage.getItem(key) || "null");
    } catch {
      saved = null; // no storage (private mode) or a broken entry: the default
    }
    this.on = saved?.on ?? defaultOn;
    this.volume = saved?.volume ?? 0.5;
    this.ctx = null; // made by unlock() or the first tune played (none is played while off)
  }

  save() {
    try {
      localStorage.setItem(this.key, JSON.stringify({ on: this.on, volume: this.volume }));
    } catch {
      /* no storage: the choice lasts as long as the page */
    }
  }

  /** Browsers start audio only after a tap or click on the page: called from one. */
  unlock() {
    if (!this.ctx && (window.AudioContext || window.webkitAudioContext)) {
      this.ctx = new (window.AudioContext || window.webkitAudioContext)();
    }
    this.ctx?.resume?.();
  }

  play(name) {
    if (!this.on || !this.volume) return;
    const tune = TUNES[name];
    if (!tune) return;
    if (!this.ctx && (window.AudioContext || window.webkitAudioContext)) {
      this.ctx = new (window.AudioContext || window.webkitAudioContext)();
    }
    const ctx = this.ctx;
    if (!ctx || ctx.state === "closed") return;
    const t0 = ctx.currentTime + 0.02;
    for (const [freq, at, length] of tune) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = "triangle";
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, t0 + at);
      gain.gain.exponentialRampToValueAtTime(0.25 * this.volume, t0 + at + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t0 + at + length);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t0 + at);
      osc.stop(t0 + at + length + 0.05);
    }
    window.__sounds = [...(window.__sounds || []), name]; // what played, for tests
  }
}
