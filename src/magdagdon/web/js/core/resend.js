// Sending again what got no answer, only where a repeat is safe (docs/web.md, Resending).
const FIRST_WAIT_MS = 500;
const LONGEST_WAIT_MS = 15000;

// Resolves after `ms`, or as soon as the browser is online again, whichever comes first; while
// the browser says it is offline, waits for it to come back.
function pause(ms) {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      window.removeEventListener("online", done);
      resolve();
    };
    const timer = navigator.onLine ? setTimeout(done, ms) : undefined;
    window.addEventListener("online", done);
  });
}

// `send()` until it gets an answer. `onWait(waiting)` tells when a resend is due (true) and when
// the answer came (false).
export async function resend(send, { onWait } = {}) {
  let wait = FIRST_WAIT_MS;
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
      onWait?.(true);
      await pause(wait);
      wait = Math.min(wait * 2, LONGEST_WAIT_MS);
    }
  }
}
