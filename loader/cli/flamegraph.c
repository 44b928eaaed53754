/* SPDX-License-Identifier: MIT */
/*
 * Flame graphs as flamegraph.pl draws them (flamegraph.h): a tree of
 * frames, each node the sum of the stacks through it; the root at the
 * bottom, children left to right by name, a frame's width its share of
 * the total. Frames narrower than 0.1 pixel are left out (flamegraph.pl's
 * --minwidth). The script is ours, small, with flamegraph.pl's behaviour.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include "flamegraph.h"
#include "output.h"

#define FG_WIDTH 1200
#define FG_XPAD 10
#define FG_FRAME_H 16
#define FG_TOP 36    /* title, search and reset above the frames */
#define FG_BOTTOM 34 /* the details line below */
#define FG_FONT 12
#define FG_CHAR_W 0.59 /* of the font size, as flamegraph.pl guesses */
#define FG_MIN_W 0.1

struct fg_node {
	char *name;
	uint64_t value;
	int child, next; /* first child, next sibling: indexes, -1 none */
};

struct fg {
	struct fg_node *n;
	int len, cap;
	int depth; /* the deepest stack */
};

static int node_new(struct fg *g, const char *name, size_t nlen)
{
	struct fg_node *nn;

	if (g->len == g->cap) {
		int cap = g->cap ? 2 * g->cap : 64;

		nn = realloc(g->n, cap * sizeof(*nn));
		if (!nn)
			return -ENOMEM;
		g->n = nn;
		g->cap = cap;
	}
	nn = &g->n[g->len];
	nn->name = malloc(nlen + 1);
	if (!nn->name)
		return -ENOMEM;
	memcpy(nn->name, name, nlen);
	nn->name[nlen] = 0;
	nn->value = 0;
	nn->child = nn->next = -1;
	return g->len++;
}

int fg_new(struct fg **gp)
{
	struct fg *g = calloc(1, sizeof(*g));

	if (!g)
		return -ENOMEM;
	if (node_new(g, "all", 3) < 0) {
		free(g);
		return -ENOMEM;
	}
	*gp = g;
	return 0;
}

void fg_free(struct fg *g)
{
	int i;

	if (!g)
		return;
	for (i = 0; i < g->len; i++)
		free(g->n[i].name);
	free(g->n);
	free(g);
}

/* The child of parent named name[0..nlen), made if new; -ENOMEM. */
static int child_of(struct fg *g, int parent, const char *name, size_t nlen)
{
	int c, last = -1;

	for (c = g->n[parent].child; c >= 0; last = c, c = g->n[c].next)
		if (strlen(g->n[c].name) == nlen &&
		    !memcmp(g->n[c].name, name, nlen))
			return c;
	c = node_new(g, name, nlen);
	if (c < 0)
		return c;
	if (last < 0)
		g->n[parent].child = c;
	else
		g->n[last].next = c;
	return c;
}

int fg_add(struct fg *g, const char *const *frames, int n, uint64_t count)
{
	int i, at = 0;

	g->n[0].value += count;
	for (i = 0; i < n; i++) {
		at = child_of(g, at, frames[i], strlen(frames[i]));
		if (at < 0)
			return at;
		g->n[at].value += count;
	}
	if (n > g->depth)
		g->depth = n;
	return 0;
}

int fg_add_folded(struct fg *g, const char *line)
{
	const char *sp = strrchr(line, ' '), *s = line;
	uint64_t count;
	char *end;
	int at = 0, depth = 0;

	if (!sp || sp[1] < '0' || sp[1] > '9')
		return -EINVAL;
	count = strtoull(sp + 1, &end, 10);
	if (*end && *end != '\n')
		return -EINVAL;
	g->n[0].value += count;
	while (s < sp) {
		const char *e = memchr(s, ';', sp - s);
		size_t n = (e ? e : sp) - s;

		at = child_of(g, at, s, n);
		if (at < 0)
			return at;
		g->n[at].value += count;
		depth++;
		s += n + 1;
	}
	if (depth > g->depth)
		g->depth = depth;
	return 0;
}

size_t fold_frame(char *out, size_t len, const char *name)
{
	size_t n = esc_text(out, len, name, strlen(name)), i;

	for (i = 0; i < n; i++)
		if (out[i] == ';')
			out[i] = ':';
	return n;
}

size_t fg_xml_esc(char *out, size_t len, const char *s)
{
	char tmp[1024];
	size_t n = esc_text_again(tmp, sizeof(tmp), s, strlen(s)), i, o = 0;

	if (!len)
		return 0;
	for (i = 0; i < n; i++) {
		const char *e = NULL;
		size_t el;

		switch (tmp[i]) {
		case '&': e = "&amp;"; break;
		case '<': e = "&lt;"; break;
		case '>': e = "&gt;"; break;
		case '"': e = "&quot;"; break;
		case '\'': e = "&apos;"; break;
		}
		el = e ? strlen(e) : 1;
		if (o + el >= len)
			break; /* an entity that does not fit is left out whole */
		if (e)
			memcpy(out + o, e, el);
		else
			out[o] = tmp[i];
		o += el;
	}
	out[o] = 0;
	return o;
}

/* flamegraph.pl's palettes, from a hash of the name: "hot" for user
 * space, orange for kernel frames (the _[k] that folded lines mark). */
static void color(const char *name, char *buf, size_t len)
{
	unsigned h = 2166136261u, v1, v2;
	size_t n = strlen(name);
	const char *p;

	for (p = name; *p; p++)
		h = (h ^ (unsigned char)*p) * 16777619u;
	v1 = h % 1000;
	v2 = (h / 1000) % 1000;
	if (n > 4 && !strcmp(name + n - 4, "_[k]"))
		snprintf(buf, len, "rgb(%u,%u,%u)", 190 + 65 * v1 / 1000,
			 90 + 65 * v1 / 1000, 0u);
	else if (!strcmp(name, "-"))
		snprintf(buf, len, "rgb(160,160,160)");
	else
		snprintf(buf, len, "rgb(%u,%u,%u)", 205 + 50 * v2 / 1000,
			 230 * v1 / 1000, 55 * ((h >> 20) % 1000) / 1000);
}

static int by_name(const void *a, const void *b)
{
	const struct fg_node *x = *(struct fg_node *const *)a;
	const struct fg_node *y = *(struct fg_node *const *)b;

	return strcmp(x->name, y->name);
}

struct draw {
	FILE *f;
	const char *unit;
	double scale; /* pixels per count */
	uint64_t total;
	int height;
};

/* The text a frame of width w shows, as the script sets it. */
static void frame_label(char *out, size_t len, const char *name, double w)
{
	int fit = (int)((w - 6) / (FG_FONT * FG_CHAR_W));
	char cut[512];

	if (fit < 3) {
		*out = 0;
		return;
	}
	snprintf(cut, sizeof(cut), "%s", name);
	if ((int)strlen(cut) > fit)
		snprintf(cut + fit - 2, sizeof(cut) - (fit - 2), "..");
	fg_xml_esc(out, len, cut);
}

static int draw_node(const struct draw *d, const struct fg *g, int at,
		     int depth, double x)
{
	const struct fg_node *nd = &g->n[at];
	double w = nd->value * d->scale, y;
	char name[1400], label[1400], fill[32];
	struct fg_node **kids;
	int c, k = 0, ret = 0;

	if (w < FG_MIN_W)
		return 0;
	y = d->height - FG_BOTTOM - (depth + 1) * FG_FRAME_H;
	fg_xml_esc(name, sizeof(name), nd->name);
	frame_label(label, sizeof(label), nd->name, w);
	color(nd->name, fill, sizeof(fill));
	fprintf(d->f, "<g><title>%s (%llu %s, %.2f%%)</title><rect x=\"%.1f\" "
		"y=\"%.1f\" width=\"%.1f\" height=\"%d\" fill=\"%s\" rx=\"2\" "
		"ry=\"2\"/><text x=\"%.2f\" y=\"%.1f\">%s</text></g>\n", name,
		(unsigned long long)nd->value, d->unit,
		d->total ? 100.0 * nd->value / d->total : 0.0, x, y, w,
		FG_FRAME_H - 1, fill, x + 3, y + 10.5, label);
	for (c = nd->child; c >= 0; c = g->n[c].next)
		k++;
	if (!k)
		return 0;
	kids = malloc(k * sizeof(*kids));
	if (!kids)
		return -ENOMEM;
	k = 0;
	for (c = nd->child; c >= 0; c = g->n[c].next)
		kids[k++] = &g->n[c];
	qsort(kids, k, sizeof(*kids), by_name);
	for (c = 0; c < k && ret == 0; c++) {
		ret = draw_node(d, g, (int)(kids[c] - g->n), depth + 1, x);
		x += kids[c]->value * d->scale;
	}
	free(kids);
	return ret;
}

/* The script: hover, zoom, search, as flamegraph.pl's (our own code). */
static const char script[] =
"\"use strict\";\n"
"var fr,det,mat,W,XP=" "10" ",FS=12,CW=0.59,srch=null;\n"
"function q(g,t){return g.getElementsByTagName(t)[0];}\n"
"function init(){fr=document.getElementById('frames').getElementsByTagName('g');\n"
" det=document.getElementById('details').firstChild;mat=document.getElementById('matched').firstChild;\n"
" W=+document.documentElement.getAttribute('width');\n"
" for(var i=0;i<fr.length;i++){var g=fr[i],r=q(g,'rect');g.ox=+r.getAttribute('x');g.ow=+r.getAttribute('width');\n"
"  g.oy=+r.getAttribute('y');g.of=r.getAttribute('fill');g.fn=q(g,'title').textContent.replace(/ \\([^(]*\\)$/,'');\n"
"  g.onmouseover=function(){det.nodeValue=q(this,'title').textContent;};\n"
"  g.onmouseout=function(){det.nodeValue=' ';};g.onclick=function(){zoom(this);};}\n"
" document.getElementById('unzoom').onclick=unzoom;document.getElementById('search').onclick=search;\n"
" window.addEventListener('keydown',function(e){if(e.keyCode===114||((e.ctrlKey||e.metaKey)&&e.keyCode===70)){e.preventDefault();search();}});}\n"
"function label(g,x,w){var t=q(g,'text'),n=Math.floor((w-6)/(FS*CW)),s=g.fn;t.setAttribute('x',x+3);\n"
" if(n<3){t.textContent='';return;}if(s.length>n)s=s.substring(0,n-2)+'..';t.textContent=s;}\n"
"function place(g,x,w){var r=q(g,'rect');r.setAttribute('x',x);r.setAttribute('width',w);label(g,x,w);}\n"
"function zoom(z){var x0=z.ox,w0=z.ow,s=(W-2*XP)/w0,e=1e-4;\n"
" document.getElementById('unzoom').style.opacity=1;\n"
" for(var i=0;i<fr.length;i++){var g=fr[i];g.removeAttribute('class');\n"
"  if(g.oy<=z.oy&&g.ox>=x0-e&&g.ox+g.ow<=x0+w0+e)place(g,XP+(g.ox-x0)*s,g.ow*s);\n"
"  else if(g.oy>z.oy&&g.ox<=x0+e&&g.ox+g.ow>=x0+w0-e){g.setAttribute('class','parent');place(g,XP,W-2*XP);}\n"
"  else g.setAttribute('class','hide');}}\n"
"function unzoom(){document.getElementById('unzoom').style.opacity=0;\n"
" for(var i=0;i<fr.length;i++){fr[i].removeAttribute('class');place(fr[i],fr[i].ox,fr[i].ow);}}\n"
"function search(){var i,g,re,t,m=[],sum=0,end=-1;\n"
" if(srch!==null){srch=null;for(i=0;i<fr.length;i++)q(fr[i],'rect').setAttribute('fill',fr[i].of);\n"
"  mat.nodeValue=' ';document.getElementById('search').style.opacity=0.6;return;}\n"
" t=prompt('Enter a search term (regexp, empty: reset)','');if(!t)return;\n"
" try{re=new RegExp(t);}catch(x){alert('Bad regexp: '+x.message);return;}srch=t;\n"
" for(i=0;i<fr.length;i++){g=fr[i];if(re.test(g.fn)){q(g,'rect').setAttribute('fill','rgb(230,0,230)');m.push(g);}}\n"
" m.sort(function(a,b){return a.ox-b.ox||b.ow-a.ow;});\n"
" for(i=0;i<m.length;i++)if(m[i].ox>=end-1e-4){sum+=m[i].ow;end=m[i].ox+m[i].ow;}\n"
" document.getElementById('search').style.opacity=1;\n"
" mat.nodeValue='Matched: '+(100*sum/(W-2*XP)).toFixed(1)+'%';}\n";

static const char style[] =
"text{font-family:Verdana,sans-serif;font-size:12px;fill:rgb(0,0,0)}\n"
"#title{text-anchor:middle;font-size:17px}\n"
"#search,#unzoom{cursor:pointer;opacity:0.6}\n"
"#matched{text-anchor:end}\n"
"#frames>g{cursor:pointer}\n"
"#frames>g:hover>rect{stroke:black;stroke-width:0.5}\n"
".hide{display:none}\n.parent{opacity:0.5}\n";

int fg_svg(const struct fg *g, FILE *f, const char *title, const char *unit)
{
	struct draw d = { f, unit, 0, g->n[0].value, 0 };
	char t[512];
	int ret;

	d.height = FG_TOP + (g->depth + 1) * FG_FRAME_H + FG_BOTTOM;
	d.scale = d.total ? (double)(FG_WIDTH - 2 * FG_XPAD) / d.total : 0;
	fg_xml_esc(t, sizeof(t), title);
	fprintf(f, "<?xml version=\"1.0\" standalone=\"no\"?>\n"
		"<svg version=\"1.1\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" onload=\"init()\" "
		"xmlns=\"http://www.w3.org/2000/svg\">\n"
		"<style type=\"text/css\">\n%s</style>\n"
		"<script type=\"text/ecmascript\"><![CDATA[\n%s]]></script>\n"
		"<defs><linearGradient id=\"bg\" y1=\"0\" y2=\"1\" x1=\"0\" "
		"x2=\"0\"><stop stop-color=\"#eeeeee\" offset=\"5%%\"/>"
		"<stop stop-color=\"#eeeeb0\" offset=\"95%%\"/>"
		"</linearGradient></defs>\n"
		"<rect x=\"0\" y=\"0\" width=\"%d\" height=\"%d\" "
		"fill=\"url(#bg)\"/>\n"
		"<text id=\"title\" x=\"%d\" y=\"24\">%s</text>\n"
		"<text id=\"unzoom\" x=\"%d\" y=\"24\" style=\"opacity:0\">"
		"Reset Zoom</text>\n"
		"<text id=\"search\" x=\"%d\" y=\"24\">Search</text>\n"
		"<text id=\"details\" x=\"%d\" y=\"%d\"> </text>\n"
		"<text id=\"matched\" x=\"%d\" y=\"%d\"> </text>\n"
		"<g id=\"frames\">\n",
		FG_WIDTH, d.height, FG_WIDTH, d.height, style, script,
		FG_WIDTH, d.height, FG_WIDTH / 2, t, FG_XPAD,
		FG_WIDTH - FG_XPAD - 100, FG_XPAD, d.height - 14,
		FG_WIDTH - FG_XPAD, d.height - 14);
	ret = draw_node(&d, g, 0, 0, FG_XPAD);
	fputs("</g>\n</svg>\n", f);
	if (ret < 0)
		return ret;
	return fflush(f) || ferror(f) ? -EIO : 0;
}
