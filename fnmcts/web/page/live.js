// The live page: Pyodide from ./pyodide/, the wheels of ./manifest.json, then fnmcts.web's functions on a click.
"use strict";

(async () => {
  const $ = (id) => document.getElementById(id);
  const status = (text) => { $("status").textContent = text; };
  const began = performance.now();
  let py, web, pmap, makeRng;
  try {
    py = await loadPyodide({ indexURL: new URL("pyodide/", location.href).href });
    document.body.dataset.pythonSeconds = ((performance.now() - began) / 1000).toFixed(1);
    const manifest = await (await fetch("manifest.json")).json();
    await py.loadPackage(manifest.wheels.map((name) => new URL("wheels/" + name, location.href).href),
                         { messageCallback: () => {} });
    document.body.dataset.wheelsSeconds = ((performance.now() - began) / 1000).toFixed(1);
    window.fnmctsPython = py;  // the page's Python, for the browser's console: fnmctsPython.runPython("...")
    web = py.pyimport("fnmcts.web");
    pmap = py.pyimport("pyrsistent").pmap;
    makeRng = py.pyimport("fnmcts.rng").make_rng;
  } catch (error) {
    status("Could not start Python: " + error);
    document.body.dataset.state = "failed";
    return;
  }
  // The page's own state: the game, seed, dives so far, and the two trees with their generators.
  const run = { game: "shut-the-box", seed: 1, dives: 0, tree: null, rng: null, mine: null, mineTree: null, mineRng: null };

  const show = () => {
    const s = web.summary(run.game, run.tree).toJs({ dict_converter: Object.fromEntries });
    $("dives").textContent = run.dives + (run.dives === 1 ? " dive" : " dives");
    $("root").textContent = s.root;
    $("states").textContent = s.states;
    $("digest").textContent = s.digest;
    $("moves").innerHTML = s.moves.length
      ? "<tr><th>move from the start</th><th>its record</th></tr>" + s.moves.map(([m, r]) => `<tr><td>${m}</td><td>${r}</td></tr>`).join("")
      : "<tr><td>The start is a roll of the dice: its children are rolls, then boxes.</td></tr>";
    $("summary").textContent = JSON.stringify({ seed: run.seed, dives: run.dives, ...s });
    if (run.mine) {
      const m = web.summary(run.game, run.mineTree).toJs({ dict_converter: Object.fromEntries });
      $("mine-out").textContent = `root ${m.root}, ${m.states} states, digest ${m.digest}`;
      const same = m.digest === s.digest;
      $("verdict").textContent = same ? "the same tree as the library's" : "a different tree from the library's";
      $("verdict").className = same ? "agree" : "differ";
    }
  };

  const reset = () => {
    run.game = $("game").value;
    run.seed = Number.parseInt($("seed").value, 10) || 0;
    run.dives = 0;
    run.tree = pmap();
    run.rng = makeRng(run.seed);
    if (run.mine) { run.mineTree = pmap(); run.mineRng = makeRng(run.seed); }
    show();
  };

  const dive = (k) => {
    try {
      run.tree = web.step(run.game, run.tree, run.rng, k);
      if (run.mine) run.mineTree = web.step(run.game, run.mineTree, run.mineRng, k, run.mine);
      run.dives += k;
      show();
    } catch (error) {
      $("mine-out").textContent = String(error);
    }
  };

  const useMine = () => {
    try {
      const scope = py.toPy({});
      py.runPython($("code").value, { globals: scope });
      const uct = scope.get("uct");
      if (uct === undefined) throw new Error("the code defines no uct");
      run.mine = uct;
      $("mine-out").textContent = "";
      reset();
    } catch (error) {
      run.mine = null;
      $("verdict").textContent = "";
      $("mine-out").textContent = String(error);
    }
  };

  $("reset").onclick = reset;
  $("game").onchange = reset;
  $("dive").onclick = () => dive(1);
  $("dive10").onclick = () => dive(10);
  $("dive100").onclick = () => dive(100);
  $("use").onclick = useMine;
  $("show").onclick = () => {
    try {
      $("explorer").srcdoc = web.explorer(run.game, run.seed, run.dives);
      $("explorer-note").textContent = `(fnmcts.views.trace of the same ${run.dives} dives, seed ${run.seed}, drawn by the explorer page)`;
    } catch (error) {
      $("explorer-note").textContent = String(error).trim().split("\n").pop();
    }
  };
  for (const b of document.querySelectorAll("button")) b.disabled = false;
  reset();
  const seconds = ((performance.now() - began) / 1000).toFixed(1);
  status(`Python ${py.runPython("import sys; sys.version.split()[0]")} in Pyodide ${py.version}, fnmcts loaded in ${seconds} s (Python ${document.body.dataset.pythonSeconds} s, wheels ${document.body.dataset.wheelsSeconds} s), all from this server.`);
  document.body.dataset.loadSeconds = seconds;
  document.body.dataset.state = "ready";
})();
