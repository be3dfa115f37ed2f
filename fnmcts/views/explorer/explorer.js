// The fnmcts explorer: steps through a trace of Monte Carlo tree search, phase by phase.
// Written for this page, no library. It reads the trace's numbers from the JSON above
// (fnmcts.views.page_data) and draws them; it computes nothing the trace holds, except
// the children's ratings of a node clicked at any time, with the built-in rules' formulas.
"use strict";
(function () {
  const DATA = JSON.parse(document.getElementById("trace-data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const MAX_DRAWN = 120;          // nodes drawn at most (the most visited first, the current path always)
  const SLOT = 34, LEVEL = 58, MAX_LEVEL = 110, PAD = 24;
  const FAR = 0.3;                // a mean this far from the exact value is drawn red

  const $ = (id) => document.getElementById(id);
  const el = (tag, attrs, text) => {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v !== null && v !== undefined) e.setAttribute(k, v);
    }
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  };
  const svgEl = (tag, attrs) => {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    return e;
  };

  // -- numbers, shown as Python's f"{x:.3f}" shows them (round half to even) ----------------
  function num(x) {
    if (x === "inf") return Infinity;
    if (x === "-inf") return -Infinity;
    return x;
  }
  function fmt(x) {
    x = num(x);
    if (x === null || x === undefined) return "-";
    if (x === Infinity) return "\u221e";
    if (x === -Infinity) return "-\u221e";
    const negative = x < 0 || Object.is(x, -0);
    const a = Math.abs(x);
    let text;
    const sixteenths = a * 16;
    if (Number.isInteger(sixteenths) && sixteenths % 2 === 1) {
      // exactly halfway between two numbers of three decimals: to the even one, as Python does
      const low = Math.floor(a * 1000);
      text = ((low % 2 === 0 ? low : low + 1) / 1000).toFixed(3);
    } else {
      text = a.toFixed(3);
    }
    return (negative ? "-" : "") + text;
  }

  // -- the rules, for a node clicked at any time (the page's only computation) --------------
  function ucbScore(s, n, z) {
    if (!n) return Infinity;
    if (!s) return 3 / n;
    return (s + z * Math.sqrt(s * (n - s) / n)) / n;
  }
  function ucb1Score(s, n, parent, c) {
    if (!n) return Infinity;
    return s / n + c * Math.sqrt(Math.log(parent) / n);
  }
  function estimate(tr, counts) {
    if (!counts || !counts[0]) return null;
    const [n, s, , , v] = counts;
    return tr.expectimax && v !== null ? v : s / n;
  }
  function rate(tr, counts, parentVisits) {
    if (!tr.rule) return null;
    if (!counts || !counts[0]) return Infinity;
    let [n, s, , , v] = counts;
    if (tr.expectimax && v !== null) s = v * n;
    return tr.rule.name === "ucb" ? ucbScore(s, n, tr.rule.k) : ucb1Score(s, n, parentVisits, tr.rule.k);
  }

  // -- the traces, prepared once ----------------------------------------------------------------
  function prepare(tr) {
    tr.hist = new Map();
    const push = (id, dive, counts) => {
      if (!tr.hist.has(id)) tr.hist.set(id, []);
      tr.hist.get(id).push([dive, counts]);
    };
    for (const [id, counts] of tr.start) push(id, 0, counts);
    tr.passes = new Map();
    tr.dives.forEach((d, i) => {
      for (const [id, , after] of d.back) push(id, i + 1, after);
      for (const step of d.steps) {
        if (step.c !== null) {
          if (!tr.passes.has(step.c)) tr.passes.set(step.c, []);
          tr.passes.get(step.c).push(i + 1);
        }
      }
    });
    tr.kids = new Map();
    tr.nodes.forEach((node, id) => {
      if (node.p >= 0 && id !== tr.root) {
        if (!tr.kids.has(node.p)) tr.kids.set(node.p, []);
        tr.kids.get(node.p).push(id);
      }
    });
    for (const list of tr.kids.values()) list.sort((a, b) => tr.nodes[a].o - tr.nodes[b].o || a - b);
    tr.subs = tr.dives.map((d) => {
      const out = [];
      d.steps.forEach((step, j) => out.push({ phase: "select", j }));
      out.push({ phase: "expand" });
      out.push({ phase: "playout" });
      d.back.forEach((b, j) => out.push({ phase: "backup", j }));
      return out;
    });
  }
  DATA.traces.forEach(prepare);

  // the last entry at or before dive k
  function lastAt(list, k) {
    if (!list) return null;
    let lo = 0, hi = list.length - 1, found = null;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const entry = Array.isArray(list[mid]) ? list[mid][0] : list[mid];
      if (entry <= k) { found = mid; lo = mid + 1; } else hi = mid - 1;
    }
    return found;
  }

  // -- where we are ---------------------------------------------------------------------------
  const state = { trace: 0, dive: 0, sub: 0, picked: null, timer: null, picking: false };
  const tr = () => DATA.traces[state.trace];
  const lastSub = (t, k) => (k === 0 ? 0 : t.subs[k - 1].length - 1);

  // What the tree looks like now: the records before the dive, the phases done so far applied.
  function view() {
    const t = tr(), k = state.dive;
    const v = { path: [], chosen: null, current: null, fresh: null, changed: new Map(), sub: null, dive: null };
    if (k === 0) {
      v.base = 0;
      return v;
    }
    const d = t.dives[k - 1];
    const sub = t.subs[k - 1][state.sub];
    v.dive = d;
    v.sub = sub;
    v.base = k - 1;
    const selecting = sub.phase === "select";
    const upto = selecting ? sub.j : d.steps.length - 1;
    for (let j = 0; j <= upto && j < d.steps.length; j++) {
      const step = d.steps[j];
      v.path.push(step.n);
      if (step.c !== null) v.path.push(step.c);
      if (selecting && j === sub.j) {
        v.current = step.c !== null ? step.c : step.n;
        if (step.ch !== null && step.k.length) v.chosen = [v.current, step.k[step.ch][0]];
      }
    }
    if (!selecting) {
      v.path.push(d.leaf);
      if (d.end === "new") v.fresh = d.leaf;
      if (sub.phase === "expand" || sub.phase === "playout") v.current = d.leaf;
    }
    if (sub.phase === "backup") {
      for (let j = 0; j <= sub.j; j++) v.changed.set(d.back[j][0], d.back[j][2]);
      v.current = d.back[sub.j][0];
    }
    return v;
  }
  function countsOf(v, id) {
    if (v.changed.has(id)) return v.changed.get(id);
    const t = tr();
    const list = t.hist.get(id);
    const at = lastAt(list, v.base);
    if (at !== null) return list[at][1];
    if (id === v.fresh) return [0, 0, 0, 0, null, null];
    return null;
  }
  function chanceVisits(v, id) {
    const t = tr();
    const list = t.passes.get(id);
    const at = lastAt(list, v.base);
    let n = at === null ? 0 : at + 1;
    if (v.dive && v.path.includes(id)) n += 1;
    return n;
  }
  function visitsOf(v, id) {
    const node = tr().nodes[id];
    if (node.k === "c") return chanceVisits(v, id);
    const c = countsOf(v, id);
    return c ? c[0] : 0;
  }
  function visible(v, id) {
    const node = tr().nodes[id];
    if (node.k === "c") return chanceVisits(v, id) > 0 || v.path.includes(id);
    return countsOf(v, id) !== null;
  }

  // -- names: the moves from the root along this dive's path, as the terminal shows them -------
  function pathNames(d) {
    const names = new Map();
    const t = tr();
    names.set(t.root, "the root");
    const trail = [];
    for (const step of d.steps) {
      for (const o of step.o) trail.push(o);
      if (step.c !== null && !names.has(step.c)) names.set(step.c, (names.get(step.n) || "?") + " > " + step.o.join(" > "));
      if (step.ch === null) break;
      const kid = step.k[step.ch];
      trail.push(kid[5]);
      if (!names.has(kid[0])) names.set(kid[0], trail.join(" > "));
    }
    return names;
  }
  function playerName(p) {
    if (p === null || p === undefined) return "nobody";
    return DATA.players[p] || `player ${p + 1}`;
  }
  function recordText(c) {
    if (!c) return "(new)";
    const [n, s, w, d, v, proven] = c;
    const parts = [`win=${w}`, `loss=${n - w - d}`];
    if (d) parts.push(`draw=${d}`);
    if (s !== w + d / 2) parts.push(`score=${fmt(s)}`);
    if (v !== null) parts.push(`value=${fmt(v)}`);
    if (proven !== null) parts.push(`proven=${proven}`);
    return `Record(${parts.join(", ")})`;
  }

  // -- the tree ----------------------------------------------------------------------------------
  const GREY = "#98a2b3";
  function colour(mean, exact) {
    if (mean === null || exact === null || exact === undefined) return GREY;
    const a = Math.min(1, Math.abs(mean - exact) / FAR);
    return `hsl(${Math.round(130 * (1 - a))}, 68%, 40%)`;
  }
  // a mean from 0 (red) through 0.5 (yellow) to 1 (green)
  function valueColour(mean) {
    if (mean === null) return GREY;
    return `hsl(${Math.round(130 * Math.max(0, Math.min(1, mean)))}, 68%, 42%)`;
  }
  // a share of the parent's visits, from pale (none) to deep blue (all)
  function shareColour(share) {
    if (share === null) return GREY;
    return `hsl(218, 75%, ${Math.round(82 - 54 * Math.max(0, Math.min(1, share)))}%)`;
  }
  function colourMode() {  // (a page without the switch, one that reuses these functions: the share)
    const choice = $("colour-by");
    return choice ? choice.value : "share";
  }
  // a node's colour in the mode chosen: its share of its parent's visits, its mean, or its mean against the exact value
  function nodeColour(v, id, mean) {
    const node = tr().nodes[id], mode = colourMode();
    if (mode === "value") return valueColour(mean);
    if (mode === "error") return colour(mean, node.x);
    if (node.p < 0 || id === tr().root) return shareColour(1);
    const parent = visitsOf(v, node.p);
    return shareColour(parent ? visitsOf(v, id) / parent : null);
  }
  // the tree's label of a node: the game's words for the state and who is to move (Nim: "heap 7 · P2"), else the move
  function shortPlayer(to) {
    if (to === "end") return "over";
    if (to === "chance") return "dice";
    return DATA.players.length === 1 ? "" : `P${to + 1}`;
  }
  function nodeLabel(node) {
    if (!node.lb) return node.via;
    const who = shortPlayer(node.to);
    return who ? `${node.lb} \u00b7 ${who}` : node.lb;
  }
  function chooseDrawn(v) {
    const t = tr();
    const drawn = new Set([t.root]);
    const frontier = [];
    const offer = (id) => {
      for (const kid of t.kids.get(id) || []) if (visible(v, kid)) frontier.push(kid);
    };
    offer(t.root);
    while (drawn.size < MAX_DRAWN && frontier.length) {
      let best = 0;
      for (let i = 1; i < frontier.length; i++) {
        if (visitsOf(v, frontier[i]) > visitsOf(v, frontier[best])) best = i;
      }
      const id = frontier.splice(best, 1)[0];
      if (drawn.has(id)) continue;
      drawn.add(id);
      offer(id);
    }
    for (const id of v.path.concat(v.chosen ? [v.chosen[1]] : [])) {
      let x = id;
      while (x !== undefined && x >= 0 && !drawn.has(x)) {
        drawn.add(x);
        x = t.nodes[x].p;
      }
    }
    return drawn;
  }
  function layout(drawn) {
    const t = tr();
    const pos = new Map();
    let slot = 0, deepest = 0;
    const place = (id, depth) => {
      deepest = Math.max(deepest, depth);
      const kids = (t.kids.get(id) || []).filter((k) => drawn.has(k));
      if (!kids.length) {
        pos.set(id, [slot++, depth]);
        return;
      }
      for (const kid of kids) place(kid, depth + 1);
      pos.set(id, [(pos.get(kids[0])[0] + pos.get(kids[kids.length - 1])[0]) / 2, depth]);
    };
    place(t.root, 0);
    return { pos, slots: Math.max(slot, 1), deepest };
  }
  function drawTree() {
    const t = tr(), v = view();
    let focus = null;
    const svg = $("tree");
    svg.replaceChildren();
    const drawn = chooseDrawn(v);
    const { pos, slots, deepest } = layout(drawn);
    const pane = $("tree-scroll");
    const fit = $("fit").checked;
    const room = Math.max(120, pane.clientWidth - 4), tall = Math.max(300, pane.clientHeight - 4);
    // fit: squeeze the columns into the pane's width (it never scrolls sideways), spread the levels over its height
    const slot = fit ? Math.min(SLOT, (room - 2 * PAD) / slots) : SLOT;
    const level = fit ? Math.max(LEVEL, Math.min(MAX_LEVEL, (tall - 2 * PAD) / (deepest + 1))) : LEVEL;
    const width = fit ? room : Math.max(room, slots * slot + 2 * PAD), height = deepest * level + 2 * PAD + 20;
    svg.setAttribute("width", width);
    svg.setAttribute("height", height);
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    const xy = (id) => {
      const [s, depth] = pos.get(id);
      return [PAD + s * slot + slot / 2, PAD + depth * level];
    };
    const rootVisits = Math.max(1, visitsOf(v, t.root));
    const onPath = new Set(v.path);
    const labelled = (id) => pos.get(id)[1] <= (tr().nodes[id].k === "c" ? 1 : 2) && drawn.size <= 40 ||
      pos.get(id)[1] <= 1 || onPath.has(id) || id === state.picked;
    // which labels win where two would overlap: the picked node's, the path's, then the shallowest
    const rank = (id) => (id === state.picked ? 0 : onPath.has(id) ? 1 : 2 + pos.get(id)[1]);
    const halo = svgEl("g"), edges = svgEl("g"), nodes = svgEl("g"), texts = svgEl("g");
    svg.append(halo, edges, nodes, texts);
    for (const id of Array.from(drawn)) if (!pos.has(id)) drawn.delete(id);  // not below the root: not drawn
    for (const id of drawn) {
      const node = t.nodes[id];
      if (id === t.root || !drawn.has(node.p)) continue;
      const [x1, y1] = xy(node.p), [x2, y2] = xy(id);
      const n = visitsOf(v, id);
      const w = 1 + 9 * Math.sqrt(n / rootVisits);
      const c = node.k === "c" ? "#b9a8fb" : nodeColour(v, id, estimate(t, countsOf(v, id)));
      const d = `M${x1},${y1} C${x1},${(y1 + y2) / 2} ${x2},${(y1 + y2) / 2} ${x2},${y2}`;
      const isChosen = v.chosen && v.chosen[1] === id && v.chosen[0] === node.p;
      if ((onPath.has(id) && onPath.has(node.p)) || isChosen) {
        halo.append(svgEl("path", { d, class: "halo", "stroke-width": w + 7 }));
      }
      const edge = svgEl("path", { d, class: "edge", stroke: c, "stroke-width": w, "data-id": id });
      edges.append(edge);
      if (node.k === "c" && labelled(id)) {  // beside its diamond (mid-edge, the edges from one parent crowd together)
        const tx = svgEl("text", { x: x2 + 8, y: y2 - 4, class: "prob", "data-rank": rank(id) + 0.5 });
        tx.textContent = node.pr;
        texts.append(tx);
      }
    }
    for (const id of drawn) {
      const node = t.nodes[id];
      const [x, y] = xy(id);
      const n = visitsOf(v, id);
      const counts = node.k === "c" ? null : countsOf(v, id);
      const mean = estimate(t, counts);
      let shape;
      const classes = ["node"];
      if (node.k === "c") {
        classes.push("chance");
        shape = svgEl("rect", { x: x - 6, y: y - 6, width: 12, height: 12, transform: `rotate(45 ${x} ${y})` });
      } else if (node.to === "end") {
        const r = 5 + 7 * Math.sqrt(n / rootVisits);
        shape = svgEl("rect", { x: x - r, y: y - r, width: 2 * r, height: 2 * r, fill: nodeColour(v, id, mean) });
      } else {
        shape = svgEl("circle", { cx: x, cy: y, r: 4 + 9 * Math.sqrt(n / rootVisits), fill: nodeColour(v, id, mean) });
      }
      if (onPath.has(id)) classes.push("on-path");
      if (id === v.current) classes.push("current");
      if (id === v.fresh) classes.push("new");
      if (id === state.picked) classes.push("picked");
      shape.setAttribute("class", classes.join(" "));
      shape.setAttribute("data-id", id);
      const title = svgEl("title");
      title.textContent = `${node.via || "the root"}` + (node.lb ? ` (${node.lb}, ${toMove(node)} to move)` : "") +
        `: ${n} visit${n === 1 ? "" : "s"}` +
        (mean !== null ? `, mean ${fmt(mean)}` : "") + (node.x !== null ? `, exact ${fmt(node.x)}` : "");
      shape.append(title);
      shape.addEventListener("click", () => pick(id));
      nodes.append(shape);
      if (id === (v.current !== null ? v.current : t.root)) focus = [x, y];
      if (labelled(id) && (id !== t.root || node.lb)) {
        const right = x > width - 90;  // near the right edge: the label to the node's left, inside the picture
        const tx = svgEl("text", { x: right ? x - 8 : x + 8, y: y + 12, "data-rank": rank(id), "data-id": id });
        if (right) tx.setAttribute("text-anchor", "end");
        tx.textContent = nodeLabel(node);
        texts.append(tx);
      }
    }
    unclutter(texts);
    if (focus !== null && !state.picking) {  // keep the node the phase is at in sight
      const [fx, fy] = focus;
      if (fx < pane.scrollLeft + 40 || fx > pane.scrollLeft + pane.clientWidth - 40) pane.scrollLeft = fx - pane.clientWidth / 2;
      if (fy < pane.scrollTop + 40 || fy > pane.scrollTop + pane.clientHeight - 40) pane.scrollTop = fy - pane.clientHeight / 2;
    }
  }

  // Drop the labels that would overlap one already kept, in rank order (the hover title still names every node).
  function unclutter(group) {
    const labels = Array.from(group.children).map((tx, i) => [Number(tx.getAttribute("data-rank")), i, tx]);
    labels.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    const kept = [];
    for (const [, , tx] of labels) {
      const b = tx.getBBox();
      const box = [b.x - 1, b.y, b.x + b.width + 1, b.y + b.height];
      if (kept.some((k) => box[0] < k[2] && k[0] < box[2] && box[1] < k[3] && k[1] < box[3])) tx.remove();
      else kept.push(box);
    }
  }
  function toMove(node) {
    if (node.to === "end") return "nobody";
    if (node.to === "chance") return "chance";
    return playerName(node.to);
  }

  // -- the panels ---------------------------------------------------------------------------------
  function kidTable(rows, chosen) {
    const table = el("table", { class: "kids" });
    const head = el("tr");
    for (const h of ["move", "visits", "mean", "+ bonus", "= score", "exact"]) head.append(el("th", {}, h));
    table.append(head);
    rows.forEach((row, i) => {
      const tr_ = el("tr", { class: "kid clickable" + (i === chosen ? " chosen" : ""), "data-id": row.id });
      tr_.append(el("td", { class: "move" }, row.move + (row.best ? " \u2605" : "")));
      tr_.append(el("td", { class: "visits" }, String(row.visits)));
      tr_.append(el("td", { class: "mean" }, fmt(row.mean)));
      tr_.append(el("td", { class: "bonus" }, fmt(row.bonus)));
      tr_.append(el("td", { class: "score" }, fmt(row.score)));
      tr_.append(el("td", { class: "exact" }, fmt(row.exact)));
      tr_.addEventListener("click", () => pick(row.id));
      table.append(tr_);
    });
    return table;
  }

  function drawDive() {
    const t = tr(), k = state.dive, list = $("phases");
    list.replaceChildren();
    $("other-path").textContent = "";
    if (k === 0) {
      $("dive-title").textContent = "Before the first dive";
      list.append(el("li", { class: "current" }, `The tree holds ${t.start.length} state${t.start.length === 1 ? "" : "s"}. Step to watch the first dive.`));
      return;
    }
    const d = t.dives[k - 1], subs = t.subs[k - 1], names = pathNames(d);
    $("dive-title").textContent = `Dive ${k}`;
    subs.forEach((sub, i) => {
      const li = el("li", { class: i < state.sub ? "done" : i === state.sub ? "current" : "", "data-phase": sub.phase });
      if (sub.phase === "select") {
        const step = d.steps[sub.j];
        let head = `select ${sub.j + 1}: at ${names.get(step.n) || "?"}`;
        if (step.o.length) head += ", " + step.o.join(", ");
        if (step.pl === null) {
          li.textContent = head + ": the game is over";
        } else if (step.k.length === 1) {
          li.textContent = `${head}: ${playerName(step.pl)} has one move, ${step.k[0][5]}`;
        } else {
          li.textContent = `${head}: ${playerName(step.pl)} chooses (mean + bonus = score)`;
          if (i === state.sub) {
            const holder = t.nodes[step.c !== null ? step.c : step.n];
            const best = new Set(holder.best || []);
            li.append(kidTable(step.k.map((kid) => ({
              id: kid[0], move: kid[5], visits: kid[1], mean: kid[2], bonus: kid[3], score: kid[4],
              exact: t.nodes[kid[0]].x, best: best.has(kid[0]),
            })), step.ch));
          } else if (step.ch !== null) {
            li.textContent += `: ${step.k[step.ch][5]}, score ${fmt(step.k[step.ch][4])}`;
          }
        }
      } else if (sub.phase === "expand") {
        const leaf = names.get(d.leaf) || t.nodes[d.leaf].via;
        li.textContent = {
          new: `expand: adds ${leaf}`,
          terminal: `expand: the game is over at ${leaf}: nothing to add`,
          proven: `expand: ${leaf} is proven: nothing to add`,
          repeat: `expand: ${leaf} is on the path already: nothing to add`,
        }[d.end];
      } else if (sub.phase === "playout") {
        if (d.play.length) li.textContent = `playout: ${d.play.join(", ")}: payoff ${d.pay}`;
        else if (d.end === "new") li.textContent = `playout: no move (the game is over there): payoff ${d.pay}`;
        else li.textContent = `playout: none: payoff ${d.pay}`;
      } else {
        const [id, before, after] = d.back[sub.j];
        li.textContent = `backup: ${names.get(id) || t.nodes[id].via} ${recordText(before)} -> ${recordText(after)}`;
      }
      list.append(li);
    });
    if (DATA.traces.length > 1) {
      const other = DATA.traces[1 - state.trace];
      if (k <= other.dives.length) {
        const mine = pathText(d), theirs = pathText(other.dives[k - 1]);
        $("other-path").textContent = mine === theirs
          ? `Trace ${other.name} took the same path at this dive.`
          : `Trace ${other.name} went another way at this dive: ${theirs}`;
      }
    }
  }
  function pathText(d) {
    const parts = [];
    for (const step of d.steps) {
      parts.push(...step.o);
      if (step.ch !== null) parts.push(step.k[step.ch][5]);
    }
    return parts.join(" > ") + ` (${d.end})`;
  }

  function drawRoot() {
    const t = tr(), v = view(), root = t.nodes[t.root], table = $("root-table");
    table.replaceChildren();
    const rootVisits = visitsOf(v, t.root);
    const head = el("tr");
    for (const h of ["move", "share", "visits", "mean", "exact"]) head.append(el("th", {}, h));
    table.append(head);
    const rows = (holder, kids) => {
      const best = new Set(holder.best || []);
      for (const id of kids) {
        const n = visitsOf(v, id), share = rootVisits ? n / rootVisits : 0;
        const row = el("tr", { class: "root-move clickable", "data-id": id });
        const name = el("td", { class: "move" }, t.nodes[id].via);
        if (best.has(id)) name.append(el("span", { class: "best", title: "an exact best move" }, " \u2605 best"));
        row.append(name);
        const bar = el("td", { class: "share" });
        bar.append(el("span", { class: "bar", style: `width:${Math.round(80 * share)}px` }));
        bar.append(document.createTextNode(" " + fmt(share)));
        row.append(bar);
        row.append(el("td", { class: "visits" }, String(n)));
        row.append(el("td", { class: "mean" }, fmt(estimate(t, countsOf(v, id)))));
        row.append(el("td", { class: "exact" }, fmt(t.nodes[id].x)));
        row.addEventListener("click", () => pick(id));
        table.append(row);
      }
    };
    if (root.d && root.d.length) {
      for (const c of root.d) {
        const chance = t.nodes[c];
        const group = el("tr", { class: "group" });
        group.append(el("td", { colspan: 5 }, `${chance.via} (probability ${chance.pr}): ${chanceVisits(v, c)} dive(s)`));
        table.append(group);
        rows(chance, chance.ch || []);
      }
    } else {
      rows(root, root.ch || []);
    }
  }

  function pick(id) {
    state.picked = id;
    state.picking = true;  // a click keeps the tree where it is
    drawTree();
    state.picking = false;
    drawNode();
    if ($("side")) $("side").scrollTop = 0;  // the node's panel heads the side pane: in sight beside the tree
  }
  function drawNode() {
    const t = tr(), v = view(), id = state.picked, body = $("node-body");
    if (id === null) return;
    const node = t.nodes[id];
    body.replaceChildren();
    $("node-title").textContent = id === t.root ? "The root" : `Node: ${node.via}`;
    const to = node.to === "end" ? "nobody: the game is over" : node.to === "chance" ? "chance" : playerName(node.to);
    body.append(el("p", {}, `To move: ${to}.` + (node.k === "c" ? ` Probability ${node.pr} from the state above.` : "")));
    if (node.r) body.append(el("pre", { class: "render" }, node.r));
    const dl = el("dl", { class: "record", id: "node-record" });
    const add = (name, value, cls) => {
      dl.append(el("dt", {}, name));
      dl.append(el("dd", { class: cls }, value));
    };
    if (node.k === "c") {
      add("dives through it", String(chanceVisits(v, id)), "visits");
    } else {
      const c = countsOf(v, id);
      add("record", recordText(c), "record");
      add("visits", String(c ? c[0] : 0), "visits");
      add("mean", fmt(estimate(t, c)), "mean");
      if (node.m !== null && node.m !== undefined) add("for", playerName(node.m), "mover");
    }
    const whose = whoseRecord(node, id === t.root);
    add("exact value", node.x === null || node.x === undefined ? "not solved" : fmt(node.x), "exact");
    if (node.xt) add("exact payoff", node.xt, "exact-payoff");
    body.append(dl);
    if (whose) body.append(el("p", { class: "whose", id: "whose-record" }, whose));
    if (node.d && node.d.length) {
      body.append(el("p", {}, "Chance moves here: each outcome leads to a decision."));
      const table = el("table", { class: "outcomes" });
      const head = el("tr");
      for (const h of ["outcome", "probability", "dives", "exact"]) head.append(el("th", {}, h));
      table.append(head);
      for (const c of node.d) {
        const row = el("tr", { class: "outcome clickable", "data-id": c });
        row.append(el("td", {}, t.nodes[c].via), el("td", {}, t.nodes[c].pr),
                   el("td", { class: "visits" }, String(chanceVisits(v, c))), el("td", { class: "exact" }, fmt(t.nodes[c].x)));
        row.addEventListener("click", () => pick(c));
        table.append(row);
      }
      body.append(table);
    } else if (node.ch && node.ch.length && node.pl !== null && node.pl !== undefined) {
      const parent = node.k === "c" ? node.par : id;
      const parentCounts = countsOf(v, parent);
      const parentVisits = parentCounts ? parentCounts[0] : 0;
      const best = new Set(node.best || []);
      const rows = node.ch.map((kid) => {
        const c = countsOf(v, kid);
        const mean = estimate(t, c);
        let score = node.ch.length > 1 ? rate(t, c, parentVisits) : null;
        let bonus = null;
        if (score !== null) bonus = mean === null ? Infinity : score - mean;
        return { id: kid, move: t.nodes[kid].via, visits: c ? c[0] : 0, mean, bonus, score, exact: t.nodes[kid].x, best: best.has(kid) };
      });
      body.append(el("p", {}, `${playerName(node.pl)} chooses among these children by mean + bonus = score` +
        (t.rule ? "." : ": the rule is a function of its own, so scores show at the selection steps of the dives only.")));
      body.append(kidTable(rows, null));
    }
  }

  // whose record a node shows, in one line (the root's: the player who moved into it, not the one to move)
  function whoseRecord(node, isRoot) {
    if (node.k === "c" || node.m === null || node.m === undefined) return null;
    const mover = playerName(node.m);
    if (DATA.players.length === 1) return `The record counts ${mover}'s results from this state on.`;
    if (isRoot) {
      return `The root's record is ${mover}'s, who moved into it, not ${toMove(node)}'s, who moves now; ` +
        `each child's record is ${toMove(node)}'s.`;
    }
    return `This record is ${mover}'s, who made the move into this state: its mean is ${mover}'s share of the wins.`;
  }
  // the lines under the root's table: shared visits, and what "every move best" means
  function drawNotes() {
    const t = tr(), root = t.nodes[t.root], notes = $("notes");
    if (!notes) return;
    notes.replaceChildren();
    const rootWhose = whoseRecord(root, true);
    if (rootWhose) notes.append(el("li", { id: "note-whose" }, rootWhose));
    notes.append(el("li", { id: "note-shared" },
      "Visits are per state, not per path: a state reached by several paths keeps one record, shared by them all, " +
      "so a node's children can hold more visits than the node itself."));
    const holders = root.d && root.d.length ? [] : [root];
    for (const holder of holders) {
      const kids = holder.ch || [];
      if (kids.length < 2 || (holder.best || []).length !== kids.length) continue;
      const values = kids.map((k) => t.nodes[k].x);
      if (values.some((x) => x === null || x === undefined)) continue;
      const lost = values.every((x) => x === 0);
      notes.append(el("li", { id: "note-all-best" }, lost
        ? `Every move of the root is starred best because every move loses: against perfect play ${playerName(holder.pl)} loses whatever they do, so the shares say nothing about a better move.`
        : `Every move of the root is starred best because all are worth the same (exact ${fmt(values[0])}).`));
    }
  }

  function drawHeader() {
    const t = tr();
    $("subtitle").textContent = `${DATA.game}; trace ${t.name}: ${t.label}; ` +
      (t.exact ? "exact values from the exact solver" : "no exact values (the game was not solved)") +
      (t.dives.length < t.total ? `; the page holds the first ${t.dives.length} of ${t.total} dives` : "");
    drawLegend();
    drawNotes();
  }
  function drawLegend() {
    const mode = colourMode();
    const scale = {
      share: ["Colour: the node's share of its parent's visits, ", "hsl(218,75%,82%), hsl(218,75%,28%)", " from none to all"],
      value: ["Colour: the mean (the record's score per visit), ", "hsl(0,68%,42%), hsl(65,68%,42%), hsl(130,68%,42%)", " from 0 to 1"],
      error: ["Colour: the mean against the exact value, ", "hsl(130,68%,40%), hsl(65,68%,40%), hsl(0,68%,40%)", ` from equal to ${FAR} or more apart`],
    }[mode];
    const labels = tr().nodes.some((node) => node.lb)
      ? ` Labels: the state and who moves (P1: ${playerName(0)}), else the move.` : "";
    $("legend").replaceChildren(
      document.createTextNode("Edge width: visits. " + scale[0]),
      el("span", { class: "swatch", style: `background: linear-gradient(90deg, ${scale[1]})` }),
      document.createTextNode(scale[2] + "; grey: unvisited" + (mode === "error" ? " or not solved" : "") +
        ". Diamonds: chance, with probabilities. Squares: the game is over. The most visited " + MAX_DRAWN +
        " nodes are drawn, and always the path." + labels),
    );
  }

  function drawControls() {
    const t = tr(), k = state.dive;
    const slider = $("slider");
    slider.max = t.dives.length;
    slider.value = k;
    $("position").textContent = `dive ${k} of ${t.dives.length}`;
    if (k === 0) $("phase").textContent = "before the first dive";
    else {
      const subs = t.subs[k - 1], sub = subs[state.sub];
      const what = sub.phase === "select" ? `select (step ${sub.j + 1})` : sub.phase === "backup" ? `backup (node ${sub.j + 1} of ${t.dives[k - 1].back.length})` : sub.phase;
      $("phase").textContent = `phase ${state.sub + 1} of ${subs.length}: ${what}`;
    }
  }

  function draw() {
    drawControls();
    drawTree();
    drawDive();
    drawRoot();
    drawNode();
  }

  // -- moving in time -----------------------------------------------------------------------------
  function go(dive, sub) {
    const t = tr();
    dive = Math.max(0, Math.min(dive, t.dives.length));
    state.dive = dive;
    state.sub = dive === 0 ? 0 : Math.max(0, Math.min(sub, lastSub(t, dive)));
    draw();
  }
  function step() {
    const t = tr();
    if (state.dive === 0) return t.dives.length ? go(1, 0) : false;
    if (state.sub < lastSub(t, state.dive)) return go(state.dive, state.sub + 1);
    if (state.dive < t.dives.length) return go(state.dive + 1, 0);
    return false;
  }
  function back() {
    const t = tr();
    if (state.dive === 0) return false;
    if (state.sub > 0) return go(state.dive, state.sub - 1);
    if (state.dive === 1) return go(0, 0);
    return go(state.dive - 1, lastSub(t, state.dive - 1));
  }
  function nextDive() {
    const t = tr();
    if (state.dive === 0 || state.sub === lastSub(t, state.dive)) {
      if (state.dive >= t.dives.length) return false;
      return go(state.dive + 1, lastSub(t, state.dive + 1));
    }
    return go(state.dive, lastSub(t, state.dive));
  }
  function stop() {
    if (state.timer !== null) clearInterval(state.timer);
    state.timer = null;
    $("play").textContent = "play";
    $("play").classList.remove("on");
  }
  function play() {
    if (state.timer !== null) return stop();
    const speed = $("speed").value;
    const tick = speed === "dive" ? nextDive : step;
    $("play").textContent = "pause";
    $("play").classList.add("on");
    state.timer = setInterval(() => {
      if (tick() === false) stop();
    }, speed === "dive" ? 120 : Number(speed));
  }

  $("first").addEventListener("click", () => { stop(); go(0, 0); });
  $("back").addEventListener("click", () => { stop(); back(); });
  $("step").addEventListener("click", () => { stop(); step(); });
  $("next").addEventListener("click", () => { stop(); nextDive(); });
  $("play").addEventListener("click", play);
  $("fit").addEventListener("change", drawTree);
  $("colour-by").addEventListener("change", () => { drawLegend(); drawTree(); });
  window.addEventListener("resize", drawTree);
  $("speed").addEventListener("change", () => { if (state.timer !== null) { stop(); play(); } });
  $("slider").addEventListener("input", (e) => { stop(); const k = Number(e.target.value); go(k, lastSub(tr(), k)); });
  document.addEventListener("keydown", (e) => {
    if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
    if (e.key === "ArrowRight") { stop(); step(); }
    if (e.key === "ArrowLeft") { stop(); back(); }
  });

  // -- two traces ------------------------------------------------------------------------------------
  if (DATA.traces.length > 1) {
    $("compare").hidden = false;
    const choice = $("trace-choice");
    DATA.traces.forEach((t, i) => {
      const label = el("label");
      const radio = el("input", { type: "radio", name: "trace", value: String(i), id: `trace-${t.name}` });
      radio.checked = i === 0;
      radio.addEventListener("change", () => {
        state.trace = i;
        state.picked = null;
        $("node-title").textContent = "Click a node";
        $("node-body").replaceChildren(el("p", { class: "hint" }, "Click a node of the tree."));
        drawHeader();
        go(state.dive, state.sub);
      });
      label.append(radio, document.createTextNode(` trace ${t.name}: ${t.label}`));
      choice.append(label);
    });
    const diff = $("difference");
    if (DATA.difference === null) {
      diff.textContent = "Both traces take the same path at every dive the page holds.";
    } else {
      diff.textContent = `The paths first differ at dive ${DATA.difference}.`;
      const jump = el("button", { type: "button", id: "go-difference" }, `go to dive ${DATA.difference}`);
      jump.addEventListener("click", () => { stop(); go(DATA.difference, 0); });
      diff.append(jump);
    }
  }

  window.fnmctsExplorer = {
    position: () => ({ trace: DATA.traces[state.trace].name, dive: state.dive, phase: state.sub }),
    go: (dive, phase) => go(dive, phase),
    format: fmt,
  };
  // the page opens on the finished search (the last dive's end), the root's panel shown; "start" goes back to dive 0
  $("colour-by").value = DATA.players.length === 1 || !DATA.traces[0].exact ? "share" : "error";
  drawHeader();
  state.picked = tr().root;
  go(tr().dives.length, lastSub(tr(), tr().dives.length));
})();
