// The worker: a copy of the diemon module answering one question at a time, so a long run
// never freezes the page. The page builds it from this function's text (a Blob URL): a page
// opened from file:// may not load a worker script by its address.
function diemonWorker() {
  var mod = null, x = null;
  var enc = new TextEncoder(), dec = new TextDecoder();
  function start() {
    return WebAssembly.instantiate(mod, {}).then(function (i) { x = i.exports; });
  }
  // A question in (JSON text), an answer out: the module's alloc / call / answer_len.
  function call(q) {
    var b = enc.encode(q);
    var p = x.alloc(b.length);
    new Uint8Array(x.memory.buffer, p, b.length).set(b);
    var r = x.call(p, b.length);
    return dec.decode(new Uint8Array(x.memory.buffer, r, x.answer_len()));
  }
  onmessage = function (m) {
    var d = m.data;
    if (d.module) {
      mod = d.module;
      start().then(function () { postMessage({ ready: true }); },
        function (e) { postMessage({ ready: false, error: String(e) }); });
      return;
    }
    var out;
    try {
      out = call(d.q);
    } catch (e) {
      // A trap leaves the instance unusable: answer with the error and start afresh.
      out = JSON.stringify({ error: { field: "module", message: "diemon stopped on an internal error: " + e } });
      start();
    }
    postMessage({ id: d.id, a: out });
  };
}

// One worker and its questions in flight, answered in order by promise.
function DiemonWorker(module) {
  var src = "(" + diemonWorker.toString() + ")()";
  this.w = new Worker(URL.createObjectURL(new Blob([src], { type: "text/javascript" })));
  this.next = 0;
  this.waiting = {};
  var self = this;
  this.ready = new Promise(function (ok, fail) {
    self.w.onmessage = function (m) {
      var d = m.data;
      if ("ready" in d) { return d.ready ? ok() : fail(new Error(d.error)); }
      var f = self.waiting[d.id];
      delete self.waiting[d.id];
      f(JSON.parse(d.a));
    };
  });
  this.w.postMessage({ module: module });
}

// Asks `q` (an object): resolves to the module's `{ok}` or `{error}`.
DiemonWorker.prototype.ask = function (q) {
  var self = this, id = this.next++;
  return this.ready.then(function () {
    return new Promise(function (ok) {
      self.waiting[id] = ok;
      self.w.postMessage({ id: id, q: JSON.stringify(q) });
    });
  });
};
