// The words of play on this device without the server (core/local.js loads them with itself), in
// English: the same keys as fil.offline.js.
export default {
  offlinePlaying: "Playing on this device. Your games are kept here and will be saved on the server when the connection returns.",
  hintNeedsConnection: "Hints need the connection. Play goes on.",
  offlineMoved: "Connection lost: play goes on on this device.",
  syncBranch: "This game went another way than the server's copy: the server kept it as a practice game ({name}).",
  syncRefusedGame: "The server did not take your game ({name}); it is kept on this device.",
  "export-refused": "EXPORT",
  syncRefused: "The server did not take {n} game(s) played offline; they are still kept on this device.",
  rankHere: "#{rank} of {n} {difficulty} games on this device",
};
