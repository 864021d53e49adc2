// savings.test.mjs — the "largest savings first" list is ordered, and its numbers add up to the planner's.
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { readFileSync } from 'node:fs';
import { loadFusion } from '../../wasm/fusion.mjs';
import { rankSavings } from '../../web/src/present/savings.js';
import { GALLERY, exampleFile, findExample } from '../../web/src/gallery/gallery.js';

let fusion;
before(async () => {
  fusion = await loadFusion();
});
const text = (id) => readFileSync(new URL(`../../examples/${exampleFile(findExample(id))}`, import.meta.url), 'utf8');

for (const [resident, strategy] of [
  [false, 'seed'],
  [true, 'seed'],
  [false, 'xla'],
  [false, 'inductor'],
]) {
  test(`over every gallery example (${strategy}, resident sources ${resident}), savings sum to bytes unfused − fused`, () => {
    for (const { id } of GALLERY) {
      const plan = fusion.plan(text(id), { broadcast: true, resident_sources: resident, strategy });
      assert.equal(plan.ok, true, id);
      const all = rankSavings(plan);
      assert.equal(
        all.reduce((s, r) => s + r.saved, 0),
        plan.bytes_unfused - plan.bytes_fused,
        id,
      );
      for (let k = 1; k < all.length; k++) assert.ok(all[k - 1].saved >= all[k].saved, `${id}: ordered`);
      for (const r of all) {
        const g = plan.groups.find((x) => x.id === r.group);
        assert.equal(r.fused, g.bytes_read + g.bytes_written);
        assert.ok(r.ops > 1, `${id}: a single op saves nothing`);
      }
    }
  });
}

test("a limit keeps the largest; the numbers shown are the planner's bytes_saved", () => {
  const plan = fusion.plan(text('resnet-basic-block'), { broadcast: true, resident_sources: false });
  const all = rankSavings(plan);
  assert.deepEqual(rankSavings(plan, 1), all.slice(0, 1));
  const g = plan.groups.find((x) => x.id === all[0].group);
  const withField = { ...plan, groups: plan.groups.map((x) => (x === g ? { ...x, bytes_saved: 1 } : x)) };
  assert.equal(rankSavings(withField).find((r) => r.group === g.id).saved, 1);
});
