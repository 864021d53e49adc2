// link-worker.js — encodes share links (url-state.js encodeState) off the main thread: compressing the text
// of a big graph takes seconds.
//
// Protocol (link-encoder.js, through worker-rpc.js, is the only peer): each {id, state:{example, text, options, compare, optimal}, exampleText}
// message is answered with {id, hash} (the hash without '#'), or {id, error} if encoding threw.
import { encodeState } from './url-state.js';

self.onmessage = ({ data: { id, state, exampleText } }) => {
  try {
    postMessage({ id, hash: encodeState(state, exampleText) });
  } catch (e) {
    postMessage({ id, error: String(e?.message ?? e) });
  }
};
