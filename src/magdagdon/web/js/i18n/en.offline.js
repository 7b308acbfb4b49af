// The words of play on this device without the server (core/local.js loads them with itself), in
// English: the same keys as fil.offline.js.
export default {
  offlinePlaying: "Playing on this device. Your games are kept here and will be saved on the server when the connection returns.",
  hintNeedsConnection: "Hints need the connection. Play goes on.",
  syncRefused: "The server did not take {n} game(s) played offline; they are still kept on this device.",
};
