// The Powers: +1/−1 on the chosen die, and a reroll of the dice picked in the tray. A Power that
// costs points asks once, with its cost, before it is spent: the engine cannot take it back.
// (The tutorial's coach names the cost itself, and allows only the Power's own tap.)

// play: createPlay's parts (view, render, request, send).
export function createPowers(play) {
  const { view, render } = play;

  function power(action, name) {
    const cost = view.game.powers.next_penalty;
    if (cost !== null && cost > 0 && !view.tutorial) {
      view.ask = { kind: "power", action, cost, power: name };
      view.sheet = "ask";
      render();
      return null;
    }
    return spend(action);
  }

  // A Power the player said yes to (or one that costs nothing).
  const spend = (action) => play.request(() => play.send(action));

  function adjust(delta) {
    const id = view.selected;
    if (id === null || !(view.game.adjust?.[String(id)] ?? []).includes(delta)) return null;
    return power({ type: "adjust", die: id, delta }, delta < 0 ? "minus" : "plus");
  }

  function reroll() {
    if (view.picking) {
      const dice = [...view.picks].sort();
      if (!dice.length) return null;
      view.picking = false;
      view.picks = new Set();
      return power({ type: "reroll", dice }, "reroll");
    }
    if (!view.game.can_reroll) return null;
    view.picking = true;
    view.picks = new Set(view.selected === null ? [] : [view.selected]);
    view.selected = null;
    render();
    return null;
  }

  return { adjust, reroll, spend };
}
