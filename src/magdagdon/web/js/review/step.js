// One step of a review, drawn read-only from the step's numbers: the board before it (with the
// player's dice or RUIN drawn solid, and the computer's choice as the hint's faint faces), the
// dice of the roll (what was rolled, what each chose), and the words: what happened, the
// expected Final Score of each choice, the points given up against the computer's choice (drawn
// dotted) and their label, or the roll's luck against what an average roll there would bring;
// for a labelled decision, one sentence: the better choice and what it was worth. Every figure
// is in whole points, rounded so that a step's own figures add up as read (lib/points.js).
import { face } from "../render/dice.js";
import { h } from "../lib/dom.js";
import { num, signed } from "../lib/format.js";
import { whole, wholeParts } from "../lib/points.js";
import { t } from "../i18n/i18n.js";

const key = (cell) => `${cell[0]}-${cell[1]}`;

// What a list of actions put where: {cells: Map(key → {face} | {ruin}), dice: Set of die ids}.
function marks(actions, roll) {
  const cells = new Map();
  const dice = new Set();
  for (const a of actions ?? []) {
    if (a.type === "stage") {
      cells.set(key(a.cell), { face: roll[a.die] });
      dice.add(a.die);
    } else if (a.type === "ruin") {
      cells.set(key(a.cell), { ruin: true });
    } else if (a.type === "adjust") {
      dice.add(a.die);
    } else if (a.type === "reroll") {
      for (const d of a.dice) dice.add(d);
    }
  }
  return { cells, dice };
}

// The same choice, as the rules see it: dice of equal value are interchangeable.
function alike(played, suggested, roll) {
  const norm = (actions) => actions.map((a) => {
    if (a.type === "stage") return `s${roll[a.die]}@${key(a.cell)}`;
    if (a.type === "adjust") return `a${roll[a.die]}${a.delta}`;
    if (a.type === "reroll") return `r${a.dice.map((d) => roll[d]).sort().join("")}`;
    if (a.type === "ruin") return `x${key(a.cell)}`;
    return a.type;
  }).sort().join(",");
  return norm(played) === norm(suggested);
}

// A step's figures in whole points: a roll's before + luck = after, a decision's
// after + given up = best (V before it is V of the computer's choice).
export function figures(step) {
  if (step.kind === "chance") {
    const [before, luck] = wholeParts([step.before, step.luck], step.after);
    return { before, luck, after: whole(step.after) };
  }
  const [after, given] = wholeParts([step.after, step.given_up], step.best);
  return { after, given, best: whole(step.best) };
}

const luckText = (luck) => (luck === 0 ? "0" : signed(luck));

// "the 4 on row 2, column 2, the 5 on row 3, column 2 and …": a list as the language joins it.
function joined(items) {
  return items.length < 2 ? items.join("") : `${items.slice(0, -1).join(", ")}${t("review.and")}${items.at(-1)}`;
}

// The computer's choice as the start of the better-choice sentence ("Placing the 4 on …").
function betterChoice(actions, roll) {
  const first = actions[0];
  if (first.type === "stage") {
    const items = actions.filter((a) => a.type === "stage").map((a) =>
      t("review.betterItem", { v: roll[a.die], r: a.cell[0] + 1, c: a.cell[1] + 1 }));
    return t("review.betterPlace", { list: joined(items) });
  }
  if (first.type === "adjust") return t(first.delta < 0 ? "review.betterMinus" : "review.betterPlus", { v: roll[first.die] });
  if (first.type === "reroll") return t("review.betterReroll", { values: joined(first.dice.map((d) => t("review.betterDie", { v: roll[d] }))) });
  if (first.type === "ruin") return t("review.betterRuin", { r: first.cell[0] + 1, c: first.cell[1] + 1 });
  return first.type;
}

// One sentence for a labelled decision: what the better choice was and what it was worth.
export function betterSentence(step) {
  if (step.kind !== "decision" || !step.label) return null;
  return t("review.better", { choice: betterChoice(step.suggested, step.roll), n: num(figures(step).given) });
}

export function describe(actions, roll) {
  const first = actions[0];
  if (first.type === "stage") {
    const list = actions.filter((a) => a.type === "stage").map((a) =>
      t("review.placeItem", { v: roll[a.die], r: a.cell[0] + 1, c: a.cell[1] + 1 }));
    return t("review.place", { list: list.join("; ") });
  }
  if (first.type === "adjust") return t(first.delta < 0 ? "review.minus" : "review.plus", { v: roll[first.die] });
  if (first.type === "reroll") return t("review.reroll", { values: first.dice.map((d) => roll[d]).join(", ") });
  if (first.type === "ruin") return t("review.ruin", { r: first.cell[0] + 1, c: first.cell[1] + 1 });
  return first.type;
}

function cellView(value, r, c, you, computer) {
  const params = { r: r + 1, c: c + 1, v: value };
  const classes = ["cell"];
  const parts = [];
  let label;
  if (value === "ruin") {
    classes.push("ruin");
    parts.push(h("span", { class: "pips" }, "RUIN"));
    label = t("review.cellRuin", params);
  } else if (value !== null) {
    classes.push("number");
    parts.push(h("span", { class: "pips" }, face(value)));
    label = t("review.cellNumber", params);
  } else if (you?.ruin) {
    classes.push("ruin", "you");
    parts.push(h("span", { class: "pips" }, "RUIN"));
    label = `${t("review.cellEmpty", params)}, ${t("review.cellYouRuin")}`;
  } else if (you?.face) {
    classes.push("number", "you");
    parts.push(h("span", { class: "pips" }, face(you.face)));
    label = `${t("review.cellNumber", { ...params, v: you.face })}, ${t("review.cellYou")}`;
  } else {
    classes.push("empty");
    label = t("review.cellEmpty", params);
  }
  if (computer) {
    const agree = you && (computer.ruin ? you.ruin : computer.face === you.face);
    classes.push(agree ? "agree" : "computer");
    if (!agree) {
      const ghost = computer.ruin ? "RUIN" : face(computer.face);
      parts.push(h("span", { class: you ? "ghost small" : "ghost" }, ghost));
    }
    label += `, ${computer.ruin ? t("review.cellComputerRuin") : t("review.cellComputer", { v: computer.face })}`;
  }
  return h("div", { class: classes.join(" "), role: "img", "aria-label": label,
    "data-review-cell": `${r}-${c}` }, ...parts);
}

function boardView(step) {
  const roll = step.roll ?? step.dice;
  const you = marks(step.played, roll).cells;
  const computer = step.kind === "decision" && !alike(step.played, step.suggested, roll)
    ? marks(step.suggested, roll).cells : new Map();
  const cells = [];
  step.board.forEach((row, r) => row.forEach((value, c) => {
    const k = `${r}-${c}`;
    cells.push(cellView(value, r, c, you.get(k), computer.get(k)));
  }));
  return h("div", { class: "review-board", role: "group", "aria-label": t("review.board") }, ...cells);
}

function diceView(step) {
  const values = step.kind === "chance" ? step.dice : step.roll;
  const you = step.kind === "decision" ? marks(step.played, values).dice : new Set();
  const differ = step.kind === "decision" && !alike(step.played, step.suggested, values);
  const computer = differ ? marks(step.suggested, values).dice : new Set();
  const rolled = new Set(step.kind === "chance" ? step.rolled : []);
  const dice = values.map((v, i) => {
    const classes = ["die", "review-die"];
    let label = t("review.die", { i: i + 1, v });
    if (rolled.has(i)) { classes.push("rolled"); label += `, ${t("review.dieRolled")}`; }
    if (you.has(i)) { classes.push("you"); label += `, ${t("review.dieYou")}`; }
    if (computer.has(i)) { classes.push("computer"); label += `, ${t("review.dieComputer")}`; }
    return h("div", { class: classes.join(" "), role: "img", "aria-label": label },
      h("span", { class: "pips" }, face(v)));
  });
  return h("div", { class: "review-dice", role: "group", "aria-label": t("review.dice") }, ...dice);
}

export function labelChip(name) {
  return h("span", { class: `chip ${name}` }, t(`review.${name}`));
}

// The step's outcome, shown above the board: the luck of a roll, or the points a decision gave
// up and its label.
function verdict(step) {
  const shown = figures(step);
  if (step.kind === "chance") {
    return h("p", { class: "step-verdict" }, t("review.luckLine", { luck: luckText(shown.luck) }), " ",
      h("span", { class: "luck-average" }, t("review.luckAverage", { v: num(shown.before) })));
  }
  // the points given up are measured against the computer's choice, drawn dotted (board or dice)
  const versus = alike(step.played, step.suggested, step.roll) ? null
    : h("span", { class: "versus", "data-review-versus": "" }, t("review.versus"));
  return h("p", { class: "step-verdict" }, t("review.givenLine", { n: num(shown.given) }),
    step.label ? " " : null, step.label ? labelChip(step.label) : null, versus ? " " : null, versus);
}

function words(step) {
  const shown = figures(step);
  if (step.kind === "chance") {
    const rolled = step.dice.filter((_, i) => step.rolled.includes(i));
    return [
      h("p", { class: "line" }, t("review.rolled", { values: rolled.join(", ") })),
      h("p", { class: "line muted" }, t("review.expectedMove", { before: num(shown.before), after: num(shown.after) })),
    ];
  }
  // each choice with the expected Final Score it leads to
  const choice = (who, actions, value) => h("p", { class: `line who ${who}` },
    h("b", {}, `${t(`review.${who}`)}: `), describe(actions, step.roll), " — ",
    h("span", { class: "v" }, t("review.expect", { v: num(value) })));
  const same = alike(step.played, step.suggested, step.roll);
  return [
    choice("you", step.played, shown.after),
    same ? h("p", { class: "line muted" }, t("review.same")) : choice("computer", step.suggested, shown.best),
  ];
}

export function stepView(step, index, count) {
  const better = betterSentence(step); // under the verdict: read before the board, never scrolled to
  const title = step.kind === "chance" ? t(`review.chance_${step.type}`) : t(`review.decision_${step.type}`);
  return h("section", { class: `review-step ${step.kind}`, "data-review-step": index,
    "data-kind": step.kind, "data-label": step.label ?? "" },
  h("p", { class: "step-head" },
    h("span", { class: "step-count" }, t("review.step", { i: index + 1, n: count })),
    h("span", {}, ` · ${t("review.turn", { n: step.turn })} · `),
    h("b", {}, title)),
  h("div", { class: "step-outcome" }, verdict(step),
    better ? h("p", { class: "step-better", "data-review-better": "" }, better) : null),
  h("div", { class: "step-play" }, boardView(step), diceView(step)),
  h("div", { class: "step-words" }, ...words(step)));
}

// What a screen reader hears when the step changes.
export function stepSpoken(step, index, count) {
  const title = step.kind === "chance" ? t(`review.chance_${step.type}`) : t(`review.decision_${step.type}`);
  const parts = [t("review.step", { i: index + 1, n: count }), title];
  if (step.kind === "chance") {
    const shown = figures(step);
    parts.push(`${t("review.luckLine", { luck: luckText(shown.luck) })} ${t("review.luckAverage", { v: num(shown.before) })}`);
  } else {
    parts.push(`${t("review.you")}: ${describe(step.played, step.roll)}`);
    parts.push(t("review.givenLine", { n: num(figures(step).given) }));
    if (step.label) parts.push(t(`review.${step.label}`), betterSentence(step).replace(/\.$/, ""));
  }
  return parts.join(". ");
}
