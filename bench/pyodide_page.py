"""The page's three budgets with its offline engine, in Debian's Chromium (bench/pyodide_bench.py
prints them):

- ready: a reopening without the connection (the same browser context, the service worker and
  its caches warm) from the page's navigation to ``<body data-offline="ready">`` (the engine
  worker said ready), ``performance.now()`` in the page; the worker's own part (its script's
  start to ready), and the CPU time all the browser's processes spent meanwhile (on a loaded
  machine the wall time counts other processes' turns);
- tap: a tap on a lit cell while playing offline → the die drawn at the next animation frame,
  and settled when the engine's answer is rendered (as bench/web_bench.py measures it online);
- memory: the PSS (``/proc/PID/smaps_rollup``) of the page's renderer process, which runs the
  page and its engine worker (Pyodide's wasm memory included): the renderer with the most CPU
  time (``SystemInfo.getProcessInfo``), at the first visit once the engine is ready (one engine
  in the renderer so far), and after the reopenings and the taps (pages reopened on the same
  site may share a renderer, which frees a closed page's engine when it will); its private
  pages alone (USS: PSS also counts a share of the libraries every Chromium process on the
  machine maps); the same page with offline play switched off beside it, and the page's
  main-thread JS heap (``Performance.getMetrics``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, Page

READY_MS = 600_000  # Pyodide's first, cold start on a loaded machine
INIT = """
localStorage.setItem("magdagdon.tutorialOffered", "1");
localStorage.setItem("magdagdon.offlinePlay", "%s");
// as on a device where the engine was ready once: it starts with the page, not after a turn
if (localStorage.getItem("magdagdon.offlinePlay") === "1") {
  localStorage.setItem("magdagdon.engineFetched", "1");
}
// the worker's own figure: from its script's start to ready (worker.js's `ms`)
const Made = window.Worker;
window.Worker = function (...args) {
  const worker = new Made(...args);
  worker.addEventListener("message", ({ data }) => {
    if (data.type === "ready") window.workerReadyMs ??= data.ms;
  });
  return worker;
};
new MutationObserver(() => {
  if (document.body?.dataset.offline === "ready") window.engineReadyAt ??= performance.now();
}).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-offline"] });
"""
CONTROLLED = """async () => {
  await navigator.serviceWorker.ready;
  while (!navigator.serviceWorker.controller) await new Promise((r) => setTimeout(r, 50));
}"""
TAP_CELL = """async (n) => {
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const idle = async () => {
    while (document.body.dataset.busy) await new Promise((r) => setTimeout(r, 1));
  };
  const drawn = [], settled = [];
  for (let i = 0; i < n; i++) {
    let cell = null;
    for (const die of document.querySelectorAll(".tray [data-die]")) {
      die.click();
      await frame();
      cell = document.querySelector(".cell.valid");
      if (cell) break;
      die.click(); // no lit cell: let it go
      await frame();
    }
    if (!cell) throw new Error("no die has a lit cell");
    const version = document.body.dataset.version;
    let settledAt = null;
    const seen = new MutationObserver(() => {
      if (!document.body.dataset.busy && document.body.dataset.version !== version) {
        settledAt ??= performance.now();
      }
    });
    seen.observe(document.body, { attributes: true });
    const start = performance.now();
    cell.click();
    if (!cell.classList.contains("staged")) throw new Error("not drawn");
    await frame();
    drawn.push(performance.now() - start);
    while (settledAt === null) await new Promise((r) => setTimeout(r, 0));
    seen.disconnect();
    settled.push(settledAt - start);
    cell.click(); // back to the tray
    await idle();
  }
  return { drawn, settled };
}"""


def _context(browser: Browser, offline_play: bool) -> BrowserContext:
    # bypass_csp: wait_for_function evaluates text, which the page's policy forbids
    context = browser.new_context(viewport={"width": 390, "height": 844}, bypass_csp=True)
    context.add_init_script(INIT % ("1" if offline_play else "0"))
    return context


def _idle(page: Page) -> None:
    page.wait_for_selector("body[data-ready]:not([data-busy])", timeout=READY_MS)


def _rollup_kb(pid: int) -> dict[str, int]:
    """``/proc/PID/smaps_rollup``'s fields in kB."""
    fields = {}
    with open(f"/proc/{pid}/smaps_rollup", encoding="ascii") as rollup:
        for line in rollup:
            name, _, rest = line.partition(":")
            if rest.strip().endswith("kB"):
                fields[name] = int(rest.split()[0])
    return fields


def _pss_kb(pid: int) -> int:
    return _rollup_kb(pid)["Pss"]


def _uss_kb(pid: int) -> int:
    """The pages only this process maps: what closing it would give back."""
    fields = _rollup_kb(pid)
    return fields["Private_Clean"] + fields["Private_Dirty"]


def _cpu_s(browser: Browser) -> float:
    """The CPU seconds of all the browser's processes so far."""
    info = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    return float(sum(p["cpuTime"] for p in info["processInfo"]))


def renderer_memory(browser: Browser, page: Page) -> dict[str, float]:
    """The page's renderer's PSS (MB), all renderers' sum, and the page's JS heap (MB)."""
    info = browser.new_browser_cdp_session().send("SystemInfo.getProcessInfo")
    renderers = [p for p in info["processInfo"] if p["type"] == "renderer"]
    busiest = max(renderers, key=lambda p: p["cpuTime"])
    cdp = page.context.new_cdp_session(page)
    cdp.send("Performance.enable")
    metrics = {m["name"]: m["value"] for m in cdp.send("Performance.getMetrics")["metrics"]}
    return {
        "page_pss_mb": _pss_kb(busiest["id"]) / 1024,
        "page_uss_mb": _uss_kb(busiest["id"]) / 1024,
        "renderers_pss_mb": sum(_pss_kb(p["id"]) for p in renderers) / 1024,
        "renderers": len(renderers),
        "js_heap_mb": metrics["JSHeapUsedSize"] / 2**20,
    }


def measure(browser: Browser, url: str, runs: int, taps: int) -> dict[str, Any]:
    context = _context(browser, offline_play=True)
    page = context.new_page()
    page.goto(url)
    page.keyboard.press("Shift")  # the first touch registers the service worker
    page.evaluate(CONTROLLED)
    page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=READY_MS)
    cold = page.evaluate("window.engineReadyAt")
    first = renderer_memory(browser, page)  # one engine in a renderer of its own so far
    context.set_offline(True)
    ready, worker, cpu = [], [], []
    for _ in range(runs):  # reopenings: the page closed, then opened again without connection
        page.close()
        page = context.new_page()
        spent = _cpu_s(browser)
        page.goto(url)
        page.wait_for_selector('body[data-offline="ready"]', state="attached", timeout=READY_MS)
        cpu.append((_cpu_s(browser) - spent) * 1000)
        ready.append(page.evaluate("window.engineReadyAt"))
        worker.append(page.evaluate("window.workerReadyMs"))
    _idle(page)
    if page.evaluate("document.body.dataset.phase") != "place":
        page.locator('[data-action="roll"]').first.click()  # played by the engine: offline
        page.wait_for_function(
            "document.body.dataset.phase === 'place' && !document.body.dataset.busy",
            timeout=READY_MS,
        )
    cells: dict[str, list[float]] = page.evaluate(TAP_CELL, taps)
    memory = renderer_memory(browser, page)
    context.close()

    context = _context(browser, offline_play=False)  # the same page without its engine
    page = context.new_page()
    page.goto(url)
    _idle(page)
    page.wait_for_load_state("networkidle")
    without = renderer_memory(browser, page)
    context.close()
    return {
        "cold": cold,
        "ready": ready,
        "worker": worker,
        "cpu": cpu,
        **cells,
        "first": first,
        "memory": memory,
        "without": without,
    }
