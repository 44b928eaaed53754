#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""fgbrowser.py SVG NAME NAME2: open a flame graph of barebpf (--svg) in
headless chromium and check that it works there as in a browser:

 - it loads without a JavaScript error (window.onerror, console errors);
 - frames named NAME and NAME2 are drawn (a rect wider than 0, a label);
 - a click on NAME zooms: NAME takes the whole width, NAME2 (beside it)
   is hidden; Reset Zoom brings NAME2 back at its width;
 - Search (the prompt answered NAME2) colours NAME2's frames and says
   "Matched: P%" with P NAME2's share of the width.

The checks run in a copy of the SVG with a script added at its end, which
writes what it found into the document; chromium's --dump-dom prints it.
Exit 0 if all hold, 1 (saying what) if not, 77 without chromium.
"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CHECK = r"""
<script type="text/ecmascript"><![CDATA[
var bbErrors = [];
window.addEventListener('error', function (e) { bbErrors.push(String(e.message)); });
function bbFind(n) {
  var r = [], i;
  for (i = 0; i < fr.length; i++) if (fr[i].fn === n) r.push(fr[i]);
  return r;
}
function bbW(g) { return +g.getElementsByTagName('rect')[0].getAttribute('width'); }
function bbCheck() {
  var out = {errors: bbErrors}, a, b, full;
  try {
    if (typeof fr === 'undefined' || !fr) init();
    a = bbFind(A); b = bbFind(B);
    out.frames = fr.length;
    out.a = a.length; out.b = b.length;
    if (a.length && b.length) {
      out.aw = bbW(a[0]); out.bw = bbW(b[0]);
      out.alabel = a[0].getElementsByTagName('text')[0].textContent;
      full = W - 2 * XP;
      a[0].dispatchEvent(new MouseEvent('click', {bubbles: true}));
      out.zoomw = bbW(a[0]) / full;
      out.bhidden = b[0].getAttribute('class') === 'hide';
      document.getElementById('unzoom').dispatchEvent(new MouseEvent('click'));
      out.unzoomw = bbW(b[0]);
      out.bshown = b[0].getAttribute('class') !== 'hide';
      window.prompt = function () { return B; };
      document.getElementById('search').dispatchEvent(new MouseEvent('click'));
      out.bfill = b[0].getElementsByTagName('rect')[0].getAttribute('fill');
      out.matched = document.getElementById('matched').textContent;
      out.bshare = 0;
      for (var i = 0; i < b.length; i++) out.bshare += bbW(b[i]) / full;
    }
  } catch (x) { out.errors.push('check: ' + x.message); }
  var t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
  t.setAttribute('id', 'bbcheck');
  t.textContent = JSON.stringify(out);
  document.documentElement.appendChild(t);
}
window.addEventListener('load', function () { setTimeout(bbCheck, 0); });
]]></script>
"""


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        return 2
    svg, a, b = sys.argv[1:]
    exe = shutil.which("chromium") or shutil.which("chromium-browser")
    if not exe:
        print("no chromium", file=sys.stderr)
        return 77
    text = open(svg, encoding="utf-8").read()
    names = "var A = %s, B = %s;" % (json.dumps(a), json.dumps(b))
    check = CHECK.replace("var bbErrors", names + "\nvar bbErrors")
    with tempfile.TemporaryDirectory() as d:
        copy = os.path.join(d, "fg.svg")
        with open(copy, "w", encoding="utf-8") as f:
            f.write(text.replace("</svg>", check + "</svg>"))
        r = subprocess.run([exe, "--headless", "--no-sandbox", "--disable-gpu",
                            "--user-data-dir=" + os.path.join(d, "profile"),
                            "--enable-logging=stderr", "--v=0",
                            "--dump-dom", "file://" + copy],
                           capture_output=True, text=True, timeout=120)
    m = re.search(r'<text id="bbcheck">(.*?)</text>', r.stdout, re.S)
    if not m:
        print("no result from the page:", r.stdout[:500], r.stderr[-2000:])
        return 1
    raw = m.group(1).replace("&quot;", '"').replace("&lt;", "<")
    out = json.loads(raw.replace("&gt;", ">").replace("&amp;", "&"))
    console = [l for l in r.stderr.splitlines()
               if "CONSOLE" in l or "Uncaught" in l]
    fails = []
    if out["errors"] or console:
        fails.append("JavaScript errors: %s %s" % (out["errors"], console))
    if not out.get("a") or not out.get("b"):
        fails.append("frames %r and %r not both drawn" % (a, b))
    else:
        if not (out["aw"] > 1 and out["bw"] > 1 and out["alabel"]):
            fails.append("a frame without width or label")
        if not (0.99 < out["zoomw"] < 1.01 and out["bhidden"]):
            fails.append("zoom on %r did not fill the width and hide %r" %
                         (a, b))
        if not (abs(out["unzoomw"] - out["bw"]) < 0.01 and out["bshown"]):
            fails.append("Reset Zoom did not restore %r" % b)
        share = re.match(r"Matched: ([0-9.]+)%", out["matched"])
        if out["bfill"] != "rgb(230,0,230)" or not share or \
                abs(float(share.group(1)) - 100 * out["bshare"]) > 0.2:
            fails.append("search for %r: fill %s, %r (share %.1f%%)" %
                         (b, out["bfill"], out["matched"],
                          100 * out["bshare"]))
    print(json.dumps(out))
    for f in fails:
        print("FAIL:", f)
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
