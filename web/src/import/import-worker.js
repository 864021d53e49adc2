// import-worker.js — turns dropped or opened files into graph JSON off the main thread, so a big model
// never freezes the page.
//
// Protocol (import-client.js, through worker-rpc.js, is the only peer): each {id, name, buffer} message (the file's bytes, an
// ArrayBuffer) is answered with {id, result}, result exactly as import-file.js importBytes returns it
// (errors are values). Not here: reading files, fetching, planning.
import { importBytes } from './import-file.js';

self.onmessage = ({ data: { id, name, buffer } }) => {
  postMessage({ id, result: importBytes(name, new Uint8Array(buffer)) });
};
