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
  }

  /** A frame came: a new step (remember the view before it and its events), or the same one. */
  update(frame, previousView) {
    const show = frame.show;
    if (!show) {
      this.step = null;
      this.beats = [];
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
    return fresh;
  }

  /** Seconds since the step began. */
  elapsed() {
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

  /** How many of the step's last events are not told yet (stations still to come): the log
   * only runs as far as the beat that is up. */
  hiddenTail() {
    const cur = this.current();
    if (cur.index < 0 || !this.events.length) return 0;
    const done = this.beats.slice(0, cur.index + 1).filter((b) => b.kind === "station").length;
    const after = this.beats.slice(cur.index + 1);
    if (!after.length) return 0;
    let seen = 0;
    for (let i = 0; i < this.events.length; i += 1) {
      if (this.events[i].type === "ranking") {
        seen += 1;
        if (seen > done) return this.events.length - i;
      }
      if (["round_ended", "final_scoring"].includes(this.events[i].type) && after.some((b) => b.kind !== "last_round")) {
        return this.events.length - i;
      }
    }
    return 0;
  }

  /** The view as it stood when beat `index` was up: the scores, track and pyramid of the
   * stations after it not applied yet (markers walking during the first second of a beat). */
  staged(view) {
    const cur = this.current();
    if (!view || !this.previous || cur.index < 0 || !this.events.length) return view;
    const stationBeats = this.beats.filter((b) => b.kind === "station");
    const beat = this.beats[cur.index];
    let upto = stationBeats.length; // every station shown: the final view
    if (beat.kind === "station") upto = stationBeats.indexOf(beat) + 1;
    else if (this.beats.slice(0, cur.index).every((b) => b.kind !== "station")) upto = 0;
    if (upto >= stationBeats.length && !(beat.kind === "station" && cur.into < walkSeconds())) return view;
    // Replay the moves (scored, cube) of the stations up to `upto` onto the view before.
    const track = Object.fromEntries(Object.entries(this.previous.track || {}).map(([b, s]) => [b, [...s]]));
    const pyramid = (this.previous.pyramid || []).map((row) => [...row]);
    const scores = Object.fromEntries(Object.entries(this.previous.players || {}).map(([p, ps]) => [p, ps.score]));
    let seen = 0;
    const walking = [];
    for (const ev of this.events) {
      if (ev.type === "ranking") seen += 1;
      if (seen > upto) break;
      const now = seen === upto && beat.kind === "station";
      if (ev.type === "scored" && ev.from !== undefined && ev.score !== ev.from) {
        let to = ev.score;
        if (now) {
          // Box by box: one box every 0.12 s in the first moments of the beat.
          const steps = Math.floor(cur.into / 0.12);
          const dist = Math.abs(ev.score - ev.from);
          to = REDUCED() ? ev.score : ev.from + Math.sign(ev.score - ev.from) * Math.min(dist, steps);
          if (to !== ev.score) walking.push(ev.player);
        }
        move(track, ev.player, scores[ev.player] ?? ev.from, to);
        scores[ev.player] = to;
      } else if (ev.type === "cube" && ev.row !== null && ev.row !== undefined && pyramid[ev.row]) {
        pyramid[ev.row][ev.cell] = ev.player;
      }
    }
    const players = Object.fromEntries(
      Object.entries(view.players || {}).map(([p, ps]) => [p, { ...ps, score: scores[p] ?? ps.score }]),
    );
    return { ...view, track, pyramid, players, walking };
  }
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
};

/** Short tones for the show's moments; mute and volume are kept per device. */
export class Sound {
  constructor(key, defaultOn) {
    this.key = key;
    const saved = JSON.parse(localStorage.getItem(key) || "null");
    this.on = saved?.on ?? defaultOn;
    this.volume = saved?.volume ?? 0.5;
    this.ctx = null;
  }

  save() {
    localStorage.setItem(this.key, JSON.stringify({ on: this.on, volume: this.volume }));
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
