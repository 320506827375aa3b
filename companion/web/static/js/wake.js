// Keep the phone's screen on while the game asks something of the player.
//
// The Screen Wake Lock API exists only in a secure context (https, localhost). Phones reach the
// table over plain http on the LAN, so there the pad plays a silent looping inline video
// (static/media/keep-awake.*: one black frame a second, muted, playsinline, so browsers let it
// play). Browsers may still refuse to start it without a tap, so every tap retries while wanted.
//
// Chromium takes its screen lock for a muted video only while the video is playing, at least
// 75 % of it on screen and it covers at least 20 % of the viewport (Blink's VideoWakeLock):
// the video therefore covers the whole viewport, invisible (opacity 0.01, behind the page) and
// letting every tap through (base.css .keep-awake-video). A 1-pixel video, as NoSleep.js
// places it, keeps no Chromium awake since that rule.

/** The clip's files, the browser picks the first it can play. */
const CLIPS = [
  ["/static/media/keep-awake.webm", "video/webm"],
  ["/static/media/keep-awake.mp4", "video/mp4"],
];

/** What keeping awake holds, in one object. */
const awake = {
  wanted: false,
  /** @type {WakeLockSentinel | null} when the native API is in use */
  lock: null,
  /** @type {HTMLVideoElement | null} the video otherwise */
  video: null,
  /** @type {"native" | "video" | "none" | null} technique(), once known */
  how: null,
};

/** "native" | "video" | "none": which technique this page can use. */
export function technique() {
  if (awake.how === null) {
    const probe = document.createElement("video");
    awake.how =
      window.isSecureContext && "wakeLock" in navigator
        ? "native"
        : CLIPS.some(([, type]) => probe.canPlayType(type))
          ? "video"
          : "none";
  }
  return awake.how;
}

/** The keep-awake video, made on first use. */
function videoElement() {
  if (!awake.video) {
    const v = document.createElement("video");
    v.muted = true;
    v.loop = true;
    v.preload = "auto";
    for (const attr of ["muted", "loop", "playsinline"]) v.setAttribute(attr, "");
    v.setAttribute("aria-hidden", "true");
    v.tabIndex = -1;
    v.className = "keep-awake-video";
    for (const [src, type] of CLIPS) {
      const source = document.createElement("source");
      source.src = src;
      source.type = type;
      v.append(source);
    }
    document.body.appendChild(v);
    awake.video = v;
  }
  return awake.video;
}

async function acquire() {
  if (!awake.wanted || document.visibilityState !== "visible") return;
  const how = technique();
  try {
    if (how === "native") {
      if (!awake.lock || awake.lock.released) {
        awake.lock = await navigator.wakeLock.request("screen");
        awake.lock.addEventListener("release", () => {
          awake.lock = null;
        });
      }
    } else if (how === "video") {
      const v = videoElement();
      if (v && v.paused) await v.play();
    }
  } catch (err) {
    // Refused until the next tap (no user activation yet) or by policy; retried on tap.
    console.info("keep-awake not active yet:", err instanceof Error ? err.name : err);
  }
}

async function release() {
  if (awake.lock) {
    const l = awake.lock;
    awake.lock = null;
    try {
      await l.release();
    } catch {
      /* already released */
    }
  }
  if (awake.video && !awake.video.paused) awake.video.pause();
}

/** Ask for (true) or give up (false) keeping the screen awake. */
export function keepAwake(on) {
  if (on === awake.wanted) return;
  awake.wanted = on;
  if (on) acquire();
  else release();
}

/** Whether the screen is currently being kept awake (for tests and the status line). */
export function isAwake() {
  if (awake.lock && !awake.lock.released) return true;
  return Boolean(awake.video && !awake.video.paused);
}

document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") acquire();
});
for (const type of ["pointerdown", "touchend", "click", "keydown"]) {
  document.addEventListener(type, () => acquire(), { capture: true, passive: true });
}

window.__keepAwake = { technique, isAwake, keepAwake };
