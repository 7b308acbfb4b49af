// Evaluated in the game's page (its own policy): starts the engine worker, opens `game` (no
// actions yet) and plays `moves`, each after the previous answer, then opens the game again from
// the log of the actions taken. A move is an action, or "stage" (the first tray die on its first
// valid cell, if any die has one) or "confirm-or-roll" (KUMPIRMAHIN when allowed, else I-ROLL).
async ({ game, moves }) => {
  const worker = new Worker("/engine/worker.js", { type: "module" });
  const next = (wanted) =>
    new Promise((resolve) => {
      const listener = ({ data }) => {
        if (!wanted(data)) return;
        worker.removeEventListener("message", listener);
        resolve(data);
      };
      worker.addEventListener("message", listener);
    });
  const failed = new Promise((resolve) =>
    worker.addEventListener("error", (event) => resolve({ type: "failed", error: event.message })),
  );
  const ready = await Promise.race([next((d) => d.type === "ready" || d.type === "failed"), failed]);
  if (ready.type !== "ready") return { ready, answers: [], actions: [] };
  let id = 0;
  const ask = async (message) => {
    id += 1;
    const answer = next((d) => d.id === id);
    const sent = performance.now();
    worker.postMessage({ ...message, id });
    return { ...(await answer), ms: performance.now() - sent };
  };
  const answers = [await ask({ type: "open", game: { ...game, actions: [] } })];
  const actions = [];
  const log = [];
  for (const move of moves) {
    const view = answers.findLast((a) => !a.error).view;
    let action = move;
    const valid = Object.entries(view.valid_cells).find(([, c]) => c.length > 0);
    if (move === "stage" && valid) {
      action = { type: "stage", die: Number(valid[0]), cell: valid[1][0] };
    } else if (typeof move === "string") {
      action = { type: view.can_confirm ? "confirm" : "roll" };
    }
    actions.push(action);
    const answer = await ask({ type: "act", action });
    if (!answer.error) log.push(answer.action);
    answers.push(answer);
  }
  answers.push(await ask({ type: "open", game: { ...game, actions: log } }));
  worker.terminate();
  return { ready, answers, actions };
}
