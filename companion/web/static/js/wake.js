// Keep the phone's screen on while the game asks something of the player.
//
// The Screen Wake Lock API exists only in a secure context (https, localhost). Phones reach the
// table over plain http on the LAN, so there the pad falls back to the NoSleep technique
// (vendor/nosleep, loaded as a classic script): a tiny silent looping inline video, muted and
// playsinline so browsers let it play, keeps the screen awake while it runs.
// Browsers may still refuse to start it without a tap, so every tap retries while wanted.

/** What keeping awake holds, in one object. */
const awake = {
  wanted: false,
  /** @type {WakeLockSentinel | null} when the native API is in use */
  lock: null,
  /** @type {HTMLVideoElement | null} NoSleep's video otherwise */
  video: null,
  /** @type {NoSleepVideo | null} */
  noSleep: null,
};


/** "native" | "video" | "none": which technique this page can use. */
export function technique() {
  if (window.isSecureContext && "wakeLock" in navigator) return "native";
  if (typeof window.NoSleep === "function") return "video";
  return "none";
}

/** NoSleep's video, made on first use; called only when technique() is "video" (NoSleep loaded). */
function videoElement() {
  if (!awake.noSleep) {
    const NoSleep = /** @type {new () => NoSleepVideo} */ (window.NoSleep);
    awake.noSleep = new NoSleep();
    awake.video = awake.noSleep.noSleepVideo || null;
    if (awake.video) {
      awake.video.muted = true;
      awake.video.setAttribute("muted", "");
      awake.video.setAttribute("loop", "");
      awake.video.setAttribute("aria-hidden", "true");
      awake.video.className = "keep-awake-video";
      document.body.appendChild(awake.video);
    }
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
