// Sending again what got no answer (a phone's connection drops answers): a request that failed
// with no answer at all (a network error, ApiError status 0) is sent again after 0.5, 1, 2, 4…
// seconds (at most 15), and at once when the browser says the connection is back; a request
// the server answered (any status) is never sent again. Only requests that are safe to repeat
// come here: reads, and actions, whose `version` makes a repeat answer the state it produced
// instead of applying it twice (docs/api.md, the retry rule).
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
