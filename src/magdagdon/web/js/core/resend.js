// Sending again what got no answer, only where a repeat is safe (docs/web.md, Resending).
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 15000;
const WAKE = "magdagdon-wake";

// Every pause ends now: something that may let a waiting request go on happened (the page's
// engine became ready, an answer came from the server).
export const wake = () => window.dispatchEvent(new Event(WAKE));

// Resolves after `ms`, or as soon as the browser is online again or wake() is called, whichever
// comes first; while the browser says it is offline, waits for one of those.
export function pause(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      window.removeEventListener(WAKE, done);
      resolve();
    };
    const timer = navigator.onLine ? setTimeout(done, ms) : undefined;
    window.addEventListener("online", done);
    window.addEventListener(WAKE, done);
  });
}

// The waits between tries: 0.5, 1, 2, 4… seconds, at most 15.
export function backoff() {
  let wait = FIRST_WAIT_MS;
  return () => {
    const now = wait;
    wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    return pause(now);
  };
}

// `send()` until it gets an answer. `onWait(waiting)` tells when a resend is due (true) and when
// the answer came (false). `instead()`, asked after each try with no answer, may give another
// way to the same end (the page's own engine): then that is done instead of the next try.
export async function resend(send, { onWait, instead } = {}) {
  const next = backoff();
  for (;;) {
    try {
      const answer = await send();
      onWait?.(false);
      return answer;
    } catch (err) {
      if (err?.status !== 0) {
        onWait?.(false);
        throw err;
      }
      const other = instead?.();
      if (other) {
        onWait?.(false);
        return other();
      }
      onWait?.(true);
      await next();
      const late = instead?.();
      if (late) {
        onWait?.(false);
        return late();
      }
    }
  }
}
