// The words of play on this device without the server (core/local.js loads them with itself), in
// Filipino: the same keys as en.offline.js.
export default {
  offlinePlaying: "Tuloy ang laro sa device na ito. Nakatago rito ang mga laro mo at ise-save sa server pagbalik ng koneksyon.",
  hintNeedsConnection: "Kailangan ng koneksyon para sa MUNGKAHI. Tuloy lang ang laro.",
  offlineMoved: "Nawala ang koneksyon: tuloy ang laro sa device na ito.",
  syncBranch: "Iba ang takbo ng laro rito kaysa sa kopya ng server: itinago ito ng server bilang praktis ({name}).",
  syncRefusedGame: "Hindi tinanggap ng server ang laro mo ({name}); nakatago ito sa device na ito.",
  "export-refused": "I-EXPORT",
  syncRefused: "Hindi tinanggap ng server ang {n} larong nilaro nang walang koneksyon; nakatago pa rin ang mga ito sa device na ito.",
  rankHere: "#{rank} sa {n} laro ng {difficulty} sa device na ito",
};
