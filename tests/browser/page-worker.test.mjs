// page-worker.test.mjs — the planner runs in a Web Worker: while it plans a 20,000-op graph the page's main
// thread stays free, and the answer equals the native CLI's.
//
// Shown without a clock, so it holds on any machine, fast or loaded: the answer comes from the worker (the
// worker names its scope in each reply; the client counts the answers per place in planner.ran), and a
// main-thread task queued while the plan is pending runs before the answer arrives. Were the plan made on the
// main thread (the client's fallback), ran.main would count it and the answer, a microtask, would come first.
// How long planning takes is measured by bench/page-timing.mjs (`npm run bench:page`), not here.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { spawnSync } from 'node:child_process';
import { openSite, openPage, closePage, waitForPlan, root } from './page-helpers.mjs';
import { matmulChain } from './strategy-graphs.mjs';

let site;
before(async () => {
  site = await openSite();
});
after(async () => {
  await site?.close();
});

test(
  'a 20,000-op plan is made in the worker, and a main-thread task runs before its answer arrives',
  { timeout: 120_000 },
  async () => {
    const page = await openPage(site, '#example=diamond');
    await waitForPlan(page, 1, 60_000);
    assert.equal(await page.evaluate(() => window.fusionPlayground.planner.where), 'worker');
    const text = matmulChain(5000);
    const run = await page.evaluate(async (t) => {
      const { planner } = window.fusionPlayground;
      const before = { ...planner.ran };
      const order = [];
      const answer = planner.plan(t, { broadcast: true, resident_sources: false }).then((result) => {
        order.push('answer');
        return result;
      });
      const task = new Promise((done) =>
        setTimeout(() => {
          order.push('main-thread task');
          done();
        }, 0),
      );
      const [result] = await Promise.all([answer, task]);
      const ran = { worker: planner.ran.worker - before.worker, main: planner.ran.main - before.main };
      return {
        ok: result.ok,
        ops: result.op_group?.length,
        bytes_fused: result.bytes_fused,
        kernels: result.kernels_fused,
        order,
        ran,
      };
    }, text);
    const cli = JSON.parse(
      spawnSync(root('build/native/cli/fusion-plan'), ['-'], { input: text, maxBuffer: 1 << 28 }).stdout,
    );
    assert.deepEqual(
      [run.ok, run.ops, run.bytes_fused, run.kernels],
      [true, 20_001, cli.bytes_fused, cli.kernels_fused],
    );
    assert.equal(run.ran.main, 0, 'nothing was planned on the main thread');
    assert.ok(run.ran.worker >= 1, 'the worker answered the plan');
    assert.deepEqual(run.order, ['main-thread task', 'answer'], 'the main thread ran a task while the worker planned');
    assert.deepEqual(page.problems, []);
    await closePage(page);
  },
);
