// import-helpers.mjs — shared steps of page-import.test.mjs and page-large.test.mjs (not a test file itself).
//
// dropFile(page, selector, name, bytes) drops a file on an element, once it is there, as a browser does
// (dragenter, dragover, drop with a DataTransfer holding it); cliPlan(text) is the native CLI's plan for a graph
// text; importerText(file) is the importer's graph for an ONNX file (tools/onnx2fusion.mjs); numbersOf(plan) is
// what shownNumbers() (page-helpers.mjs) reads for that plan.
import { spawnSync } from 'node:child_process';
import { root } from './page-helpers.mjs';

export async function dropFile(page, selector, name, bytes) {
  await page.waitForSelector(selector); // e.g. the JSON editor, which loads after the first plan
  await page.evaluate(
    ({ selector, name, data }) => {
      const file = new File([Uint8Array.from(atob(data), (c) => c.charCodeAt(0))], name);
      const dt = new DataTransfer();
      dt.items.add(file);
      const target = document.querySelector(selector);
      for (const type of ['dragenter', 'dragover', 'drop'])
        target.dispatchEvent(new DragEvent(type, { dataTransfer: dt, bubbles: true, cancelable: true }));
    },
    { selector, name, data: Buffer.from(bytes).toString('base64') },
  );
}

export const cliPlan = (text) =>
  JSON.parse(spawnSync(root('build/native/cli/fusion-plan'), ['-'], { input: text, maxBuffer: 1 << 28 }).stdout);

export const importerText = (file) =>
  spawnSync(process.execPath, [root('tools/onnx2fusion.mjs'), '--quiet', file], {
    maxBuffer: 1 << 28,
  }).stdout.toString();

export const numbersOf = (plan) => ({
  bytes_unfused: plan.bytes_unfused,
  bytes_fused: plan.bytes_fused,
  speedup: `${plan.speedup_estimate.toFixed(2)}×`,
  kernels: `${plan.kernels_unfused} → ${plan.kernels_fused}`,
});
