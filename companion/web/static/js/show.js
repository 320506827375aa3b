// The show on a screen: which beat of the current step is up (from the frame's `show`: the
// step's beats with their seconds and how far the server's show is into them), the view as it
// stood at that beat, and short sounds made with the Web Audio API (no audio files). The
// server decides when a step comes and stages every beat's view (the frame's `game.staged`,
// companion/table/staging.py); this walks through the beats on the screen's own clock and
// animates between two views it was given (markers walk box by box). It folds no event.

const REDUCED = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

export class Beat {
  constructor() {
    this.step = null;
    this.beats = [];
    this.start = 0; // performance.now() at which the step's first beat began
    this.staged = null; // the server's views of this step: before it and at each beat (diffs)
    this.frozen = null; // seconds into the step where a paused replay holds it (null: running)
  }

  /** A frame came: a new step, or the same one. Every frame of a step carries its staged
   * views and, with each beat, how many of its events are not told yet, while the beats run. */
  update(frame) {
    const show = frame.show;
    this.staged = frame.game?.staged || null;
    if (!show) {
      this.step = null;
      this.beats = [];
      this.frozen = null;
      return false;
    }
    const fresh = show.step !== this.step;
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
   * only runs as far as the beat that is up. The server says it with each beat (`untold`), so
   * a page opened in the middle of a step (its history ends with the step's events) tells as
   * much as one that watched the step come. */
  untold() {
    const cur = this.current();
    return cur.index < 0 ? 0 : this.beats[cur.index].untold ?? 0;
  }

  /** The view before this step (null: the server sent none, the step's beats are over). */
  before(view) {
    return view && this.staged?.before ? patch(view, this.staged.before) : null;
  }

  /** The view as it stands while the beat that is up is on the screens (the server's view
   * for that beat), markers walking box by box from the beat before in the first moments of
   * a station. Past the beats (or without staged views): `view` itself. */
  view(view) {
    const cur = this.current();
    const staged = this.staged?.beats;
    if (!view || !staged || cur.index < 0 || cur.index >= staged.length) return view;
    const at = patch(view, staged[cur.index]);
    const walkingNow = this.beats[cur.index]?.kind === "station" && cur.into < walkSeconds() && !REDUCED();
    if (!walkingNow) return { ...at, walking: [] };
    const from = cur.index > 0 ? patch(view, staged[cur.index - 1]) : patch(view, this.staged.before || {});
    return walk(from, at, cur.into);
  }
}

/** `view` with one of the server's differences put back (companion/table/staging.py `patch`):
 * the keys it names, and of `players` the fields it names of each card. */
export function patch(view, changes) {
  if (!changes) return view;
  const out = { ...view, ...changes };
  if (changes.players) {
    const cards = { ...(view.players || {}) };
    for (const [p, card] of Object.entries(changes.players)) cards[p] = { ...cards[p], ...card };
    out.players = cards;
  }
  return out;
}

function walkSeconds() {
  return REDUCED() ? 0 : 1.5;
}

/** `to` with each marker whose score differs from `from` part of the way there, one box
 * every 0.12 s `into` the beat: an animation between two given views (it decides nothing). */
export function walk(from, to, into) {
  const track = Object.fromEntries(Object.entries(to.track || {}).map(([b, st]) => [b, [...st]]));
  const players = { ...(to.players || {}) };
  const walking = [];
  for (const [p, card] of Object.entries(players)) {
    const a = from.players?.[p]?.score;
    const b = card.score;
    if (a === undefined || a === b) continue;
    const now = a + Math.sign(b - a) * Math.min(Math.abs(b - a), Math.floor(into / 0.12));
    if (now === b) continue;
    const stack = track[String(b)];
    if (stack?.includes(p)) {
      stack.splice(stack.indexOf(p), 1);
      if (!stack.length) delete track[String(b)];
    }
    (track[String(now)] ||= []).push(p);
    players[p] = { ...card, score: now };
    walking.push(p);
  }
  return { ...to, track, players, walking };
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
    /** @type {ReturnType<typeof setTimeout> | undefined} suspends the context after a tune */
    this.sleep = undefined;
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
    this.rest(0.5);
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
    ctx.resume?.();
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
    this.rest(t0 - ctx.currentTime + Math.max(...tune.map(([, at, length]) => at + length)) + 0.1);
  }

  /** A running context keeps the audio output busy between tunes (2 % of a core on a test
   * machine, all game long): it sleeps ``seconds`` from now unless a tune comes first, and
   * the next tune wakes it (the page has had its tap by then, so it may). */
  rest(seconds) {
    clearTimeout(this.sleep);
    const ctx = this.ctx;
    this.sleep = setTimeout(() => ctx?.state === "running" && ctx.suspend?.(), seconds * 1000);
  }
}
