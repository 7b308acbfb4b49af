// The rules and the About page in English: a faithful translation of text.fil.js.
export default {
  rules: [
    { h: "GOAL", body: [
      { p: "Fill the 4×4 board while growing one connected field of numbers. Score as many points as you can by building strong rows and columns and avoiding RUINs." },
    ] },
    { h: "A TURN", body: [
      { ul: [
        "Press ROLL. Four standard D6 are rolled.",
        "Tap a die, then tap one of its highlighted valid cells to stage it on the board.",
        "The minimum number of dice you must place depends on the chosen difficulty.",
        "Once the required minimum is staged, CONFIRM becomes available. You may place more dice before confirming. Any unused dice are discarded automatically when you confirm.",
        "Before CONFIRM, staged placements can be undone and changed. After CONFIRM, the placed numbers are permanent.",
      ] },
    ] },
    { h: "DIFFICULTY", body: [
      { ul: [
        "PEACEFUL: 3 Majda Powers. Place at least 2 dice each turn. Power penalties are −10, −20 and −40 points, in the order of use.",
        "SURVIVAL: 1 Majda Power. Place at least 2 dice each turn. Using the Power costs −70 points.",
        "NIGHTMARE: 0 Majda Powers. Place at least 3 dice each turn.",
        "When fewer empty cells remain than the normal minimum, the requirement drops automatically to the number of empty cells. So on NIGHTMARE the last two cells need 2 dice and the last cell 1.",
        "Changing the difficulty in SETTINGS starts a new game. High Scores are kept separately for each difficulty.",
      ] },
    ] },
    { h: "VALID PLACEMENT", body: [
      { ul: [
        "The first die of the game may go on any empty cell.",
        "Every later die must be horizontally or vertically next to at least one numbered cell: above, below, left or right. Diagonal contact does not count.",
        "The new value must differ by at most 1 from every horizontal or vertical numbered neighbour. Equal values are fine.",
        "A RUIN is not a number. It makes no connection and does not limit the values of the cells next to it.",
        "Dice staged earlier in the same turn count when later placements are checked. So the order in which you place dice can change what is valid.",
      ] },
      { p: "Example: if an empty cell is next to both a 3 and a 4, only a 3 or a 4 can go there." },
    ] },
    { h: "MAJDA POWERS", body: [
      { ul: [
        "The number of Majda Power uses is set by the difficulty: PEACEFUL 3, SURVIVAL 1, NIGHTMARE 0.",
        "MINUS −1 or PLUS +1 changes one available die by exactly 1. A value never goes below 1 or above 6. One change costs 1 use.",
        "REROLL lets you choose one or more available dice and reroll them together. One REROLL costs 1 use, however many dice you choose.",
        "On PEACEFUL the first Power costs 10 points, the second another 20 and the third another 40: 70 points in all when all three are used.",
        "On SURVIVAL the single Power costs 70 points. NIGHTMARE has no Powers, so it has no Power penalty either.",
        "Powers are optional and can be used more than once in a turn while uses remain.",
        "A staged die must be taken back from the board before its value is changed or it is rerolled.",
      ] },
    ] },
    { h: "MAGDAGDON AND RUINS", body: [
      { ul: [
        "If no order of the current roll can place the minimum your difficulty demands, the turn goes into MAGDAGDON.",
        "You may use a Majda Power to save the roll if your difficulty still gives you one, or accept MAGDAGDON even with Powers left.",
        "When you accept MAGDAGDON, pick any empty permanent cell. It becomes a RUIN until the end of the game, and the turn ends.",
        "Each RUIN costs 15 points in the final scoring.",
        "If there is a valid way to place the required minimum, MAGDAGDON cannot be forced by a wrong staged placement. Undo or rearrange the staged placements.",
      ] },
    ] },
    { h: "SCORING", body: [
      { ul: [
        "Each row and column scores the sum of its numbered cells. Since every cell belongs to one row and one column, every number effectively counts twice in the base score.",
        "A complete numbered row or column can earn one combination bonus: STRAIGHT +60, FOUR OF A KIND +40 or TWO PAIRS +20.",
        "A STRAIGHT must be four exactly consecutive values in one direction, for example 1-2-3-4, 3-4-5-6, 4-3-2-1 or 6-5-4-3.",
        "A line with a RUIN still scores the sum of its remaining numbered cells, but no combination bonus.",
        "Each RUIN takes 15 points off the total score.",
        "Then the Majda Power penalties are subtracted: PEACEFUL −10 / −20 / −40 in the order of use; SURVIVAL −70 for its single use; NIGHTMARE 0.",
      ] },
      { p: "Final Score = Base Score + Line Bonuses − Ruin Penalties − Power Penalties." },
    ] },
    { h: "END OF THE GAME", body: [
      { p: "The game ends when all 16 cells hold a number or a RUIN. Your final score, with every RUIN and Majda Power penalty, is computed at once and saved automatically to the High Scores table of the difficulty you played, with the date, the number of turns and the Majda Powers used." },
    ] },
  ],
  about: [
    { p: "MAGDAGDON is a CUBIRI ORIGINAL, dedicated to Majduška. Happy 20th birthday! ❤️" },
  ],
};
