// selection-panel.js — properties of the selected op, kernel or edge; edits an op's fields in place.
//
// Contract: createSelectionPanel(body, {dispatch, dtypes, planner?}) → {render(state, editable)}. Shows the
// selection of state (an op: name, kind, shape, dtype, inputs, bytes moved unfused, its kernel and the kernels
// recomputing it; a kernel: pattern label, the rule that formed it (a "formed by" row: the plan group's `rule`,
// as the planner words it), members, bytes (with the planner's formulas when they depend on named dimensions)
// and estimated time, and with a planner its generated code (code-view.js); an
// edge: fused or the planner's reason in words). Edits dispatch 'edit-graph' events; invalid field text is
// marked and not sent. Numbers are the planner's. render does nothing when the plan, graph and selection are
// those already shown. Browser-only; shown by tests/browser/page-edit.test.mjs.

import { h } from './dom.js';
import { opLabel, parseShape, resolveInputs } from '../graph/graph-text.js';
import { categoryOf } from '../graph/op-kinds.js';
import { formatBytes, exactBytes, formatShape, formatTime } from '../present/format.js';
import { bytesFormula, hasNames } from '../present/formula.js';
import { explainReason } from '../present/reasons.js';
import { createCodeView } from './code-view.js';

// A group's bytes, and the planner's formula for them when it depends on a name.
const bytesCell = (n, f) =>
  h(
    'span',
    { title: exactBytes(n) },
    formatBytes(n),
    hasNames(f) ? h('span', { class: 'formula', 'data-testid': 'sel-formula' }, ` = ${bytesFormula(f)}`) : null,
  );

// The other groups that hold op i (recomputed copies), by id.
const copiesOf = (plan, i, own) => plan.groups.filter((x) => x.id !== own && x.ops.includes(i)).map((x) => x.id);

export function createSelectionPanel(body, { dispatch, dtypes = [], planner }) {
  const codeView = planner ? createCodeView({ planner, dispatch }) : null;
  const edit = (e) => dispatch({ type: 'edit-graph', edit: e });

  function field(label, input) {
    const id = `prop-${label}`;
    input.id = id;
    return [h('label', { for: id }, label), input];
  }

  function opView(graph, plan, i, editable) {
    const op = graph.ops[i];
    const commit = (patch) => edit({ type: 'update', op: i, patch });
    const onEnter = (e) => {
      if (e.key === 'Enter') e.target.blur();
    };
    const name = h('input', {
      value: op.name ?? '',
      disabled: !editable,
      'data-testid': 'prop-name',
      onkeydown: onEnter,
      onchange: (e) => commit({ name: e.target.value.trim() || undefined }),
    });
    const kind = h('input', {
      value: op.kind,
      list: 'kind-list',
      disabled: !editable,
      'data-testid': 'prop-kind',
      onkeydown: onEnter,
      onchange: (e) => commit({ kind: e.target.value.trim() }),
    });
    const shape = h('input', {
      value: (op.shape ?? []).join(', '),
      disabled: !editable,
      'data-testid': 'prop-shape',
      onkeydown: onEnter,
      onchange: (e) => {
        const dims = parseShape(e.target.value);
        e.target.setAttribute('aria-invalid', dims ? 'false' : 'true');
        if (dims) commit({ shape: dims });
      },
    });
    // A read-only panel (an embed) lists only the op's own dtype, so it needs no list of dtypes.
    const dtypeOptions = (editable ? dtypes : [op.dtype].filter(Boolean)).map((d) =>
      h('option', { value: d, selected: op.dtype === d }, d),
    );
    if (op.dtype === undefined)
      dtypeOptions.unshift(h('option', { value: '', selected: true }, `${op.dtype_bytes} bytes`));
    const dtype = h(
      'select',
      {
        disabled: !editable,
        'data-testid': 'prop-dtype',
        onchange: (e) => e.target.value && commit({ dtype: e.target.value, dtype_bytes: undefined }),
      },
      dtypeOptions,
    );
    const resolved = resolveInputs(graph)[i];
    const inputs = h(
      'div',
      { class: 'input-list' },
      resolved.length
        ? resolved.map((p) =>
            h(
              'span',
              { class: 'input-chip' },
              h('code', {}, p >= 0 ? opLabel(graph, p) : '?'),
              editable && p >= 0
                ? h(
                    'button',
                    {
                      title: `Disconnect ${opLabel(graph, p)}`,
                      'aria-label': `Disconnect ${opLabel(graph, p)}`,
                      onclick: () => edit({ type: 'disconnect', producer: p, consumer: i }),
                    },
                    '✕',
                  )
                : null,
            ),
          )
        : h('span', { class: 'muted' }, 'none (a source)'),
    );
    const g = plan.groups.find((x) => x.id === plan.op_group[i]);
    return [
      h(
        'p',
        {},
        h('strong', {}, opLabel(graph, i)),
        ' ',
        h('span', { class: 'badge' }, categoryOf(op.kind)),
        ' ',
        g?.outputs?.includes(i)
          ? h('span', { class: 'badge' }, 'written to memory')
          : h('span', { class: 'badge' }, 'stays in registers'),
      ),
      h(
        'div',
        { class: 'props' },
        field('name', name),
        field('kind', kind),
        field('shape', shape),
        field('dtype', dtype),
        h('label', {}, 'inputs'),
        inputs,
      ),
      typeof plan.op_bytes_unfused?.[i] === 'number'
        ? h(
            'p',
            { 'data-testid': 'op-bytes' },
            'Unfused, this op moves ',
            h('strong', { title: exactBytes(plan.op_bytes_unfused[i]) }, formatBytes(plan.op_bytes_unfused[i])),
            ' (its distinct inputs read + its output written).',
          )
        : null,
      g
        ? h(
            'p',
            {},
            'Kernel ',
            h(
              'a',
              {
                href: '#',
                onclick: (e) => {
                  e.preventDefault();
                  dispatch({ type: 'select', target: { kind: 'group', id: g.id } });
                },
              },
              String(g.id),
            ),
            ` (${g.ops.length} op${g.ops.length > 1 ? 's' : ''}) reads ${formatBytes(g.bytes_read)}, writes ${formatBytes(g.bytes_written)}.`,
          )
        : null,
      copiesOf(plan, i, g?.id).length
        ? h(
            'p',
            { 'data-testid': 'op-copies' },
            `↻ Also recomputed inside kernel ${copiesOf(plan, i, g?.id).join(', ')}.`,
          )
        : null,
      editable
        ? h(
            'div',
            { class: 'sel-actions' },
            h(
              'button',
              { class: 'btn small danger', 'data-testid': 'delete-op', onclick: () => edit({ type: 'remove', op: i }) },
              'Delete op',
            ),
          )
        : null,
    ];
  }

  function groupView(graph, plan, id) {
    const g = plan.groups.find((x) => x.id === id);
    if (!g) return [h('p', { class: 'muted' }, 'That kernel is gone.')];
    const names = (ids) => (ids?.length ? ids.map((k) => opLabel(graph, k)).join(', ') : '–');
    return [
      h(
        'p',
        {},
        h('strong', {}, `Kernel ${g.id}`),
        g.label ? [' ', h('span', { class: 'pattern' }, g.label)] : null,
        ` — ${g.ops.length} op${g.ops.length > 1 ? 's' : ''}${g.recomputed?.length ? `, ${g.recomputed.length} recomputed here` : ''}`,
      ),
      h(
        'div',
        { class: 'props' },
        g.rule
          ? [
              h('span', { class: 'muted rule-label' }, 'formed by'),
              h('span', { class: 'group-rule', 'data-testid': 'group-rule' }, g.rule),
            ]
          : null,
        h('span', { class: 'muted' }, 'ops'),
        h('span', {}, names(g.ops)),
        h('span', { class: 'muted' }, 'reads'),
        h('span', {}, names(g.inputs)),
        h('span', { class: 'muted' }, 'writes'),
        h('span', {}, names(g.outputs)),
        h('span', { class: 'muted' }, 'bytes read'),
        bytesCell(g.bytes_read, g.bytes_read_formula),
        h('span', { class: 'muted' }, 'bytes written'),
        bytesCell(g.bytes_written, g.bytes_written_formula),
        typeof g.time_us === 'number'
          ? [
              h('span', { class: 'muted' }, 'est. time'),
              h('span', { title: `${g.time_us} µs; ${g.flops} flops` }, formatTime(g.time_us)),
            ]
          : null,
      ),
    ];
  }

  function edgeView(graph, plan, { producer, consumer }, editable) {
    const e = plan.edges.find((x) => x.producer === producer && x.consumer === consumer);
    if (!e) return [h('p', { class: 'muted' }, 'That edge is gone.')];
    const p = opLabel(graph, producer);
    const c = opLabel(graph, consumer);
    return [
      h(
        'p',
        {},
        h('code', {}, p),
        ' → ',
        h('code', {}, c),
        ' ',
        h('span', { class: 'badge' }, e.fused ? 'fused' : `not fused: ${e.reason}`),
      ),
      h('p', { 'data-testid': 'edge-reason' }, explainReason(e, { producer: p, consumer: c })),
      h(
        'p',
        { class: 'muted' },
        `${p}: ${formatShape(graph.ops[producer].shape)} → ${c}: ${formatShape(graph.ops[consumer].shape)}`,
      ),
      editable
        ? h(
            'div',
            { class: 'sel-actions' },
            h(
              'button',
              {
                class: 'btn small danger',
                'data-testid': 'delete-edge',
                onclick: () => edit({ type: 'disconnect', producer, consumer }),
              },
              'Remove edge',
            ),
          )
        : null,
    ];
  }

  let shown = {};
  return {
    render(state, editable) {
      const { graph, plan, selection: sel } = state;
      if (shown.plan === plan && shown.graph === graph && shown.selection === sel) return;
      shown = { plan, graph, selection: sel };
      let content;
      if (!graph || !plan || !sel)
        content = [
          h(
            'p',
            { class: 'muted' },
            editable
              ? 'Click an op, a kernel or an edge. Double-click the graph background to add an op.'
              : 'Click an op, a kernel or an edge.',
          ),
        ];
      else if (sel.kind === 'op' && graph.ops[sel.id]) content = opView(graph, plan, sel.id, editable);
      else if (sel.kind === 'group') {
        content = groupView(graph, plan, sel.id);
        const group = plan.groups.find((x) => x.id === sel.id);
        if (codeView && group) {
          content.push(codeView.element);
          codeView.show(state, sel.id);
        }
      } else if (sel.kind === 'edge') content = edgeView(graph, plan, sel.id, editable);
      else content = [h('p', { class: 'muted' }, 'Nothing selected.')];
      body.replaceChildren(...content.filter(Boolean));
    },
  };
}
