// fake-worker.mjs — a stand-in for a Web Worker in Node tests of the worker clients (not a test file itself).
//
// It records what is posted ({data, transfer}) and whether it was terminated; the test answers it with
// reply(data) or crashes it with crash(message), as the browser would call onmessage and onerror.
// FakeWorker.started lists every instance made since FakeWorker.reset(), newest last (e.g. when the code under
// test constructs it as globalThis.Worker, with the script URL).
export class FakeWorker {
  static started = [];

  static reset() {
    FakeWorker.started = [];
  }

  constructor(url = '') {
    this.url = String(url);
    this.posted = [];
    this.terminated = false;
    FakeWorker.started.push(this);
  }
  postMessage(data, transfer) {
    this.posted.push({ data, transfer });
  }
  terminate() {
    this.terminated = true;
  }
  reply(data) {
    this.onmessage({ data });
  }
  crash(message) {
    this.onerror({ message, preventDefault() {} });
  }
}
