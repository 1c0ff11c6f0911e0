import { describe, expect, it } from "vitest";
import { stripHostileElements } from "../../src/hygiene/hostile-elements.ts";

describe("stripHostileElements (SPEC §1)", () => {
  it("removes script and style elements with their content", () => {
    expect(stripHostileElements("a<script>steal()</script>b<STYLE type=x>body{}</style>c")).toBe("abc");
  });

  it("removes iframe, object and embed tags, keeping fallback text", () => {
    expect(stripHostileElements('x<iframe src="https://e.example"></iframe>y')).toBe("xy");
    expect(stripHostileElements('<object data="a.swf">fallback</object><embed src="b.swf">')).toBe("fallback");
  });

  it("removes base, link and meta tags", () => {
    expect(stripHostileElements('<base href="https://e.example/"><link rel=stylesheet href=x.css><meta http-equiv="refresh" content="0;url=https://e.example">ok')).toBe("ok");
  });

  it("drops event-handler attributes", () => {
    expect(stripHostileElements('<b onclick="x()" class="k" ONMOUSEOVER=y>t</b>')).toBe('<b class="k">t</b>');
  });

  it("drops auto-fetch attributes holding a URL, keeping other attributes", () => {
    expect(stripHostileElements('<img src="https://t.example/p.gif" alt="logo" width=3>')).toBe('<img alt="logo" width=3>');
    expect(stripHostileElements('<video poster="p.png" srcset="a.png 1x"></video>')).toBe("<video></video>");
    expect(stripHostileElements('<td background="bg.png">x</td>')).toBe("<td>x</td>");
  });

  it("keeps ordinary links but drops script and data URLs, even obfuscated", () => {
    expect(stripHostileElements('<a href="https://ok.example">ok</a>')).toBe('<a href="https://ok.example">ok</a>');
    expect(stripHostileElements('<a href="javascript:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(stripHostileElements('<a href="jav&#x09;ascript&colon;alert(1)">x</a>')).toBe("<a>x</a>");
    expect(stripHostileElements('<a href=" JaVaScRiPt:alert(1)">x</a>')).toBe("<a>x</a>");
    expect(stripHostileElements('<a href="data:text/html,<b>x</b>">x</a>')).toBe("<a>x</a>");
  });

  it("drops absolute form targets and keeps relative ones", () => {
    expect(stripHostileElements('<form action="https://e.example/collect"><button formaction="//e.example">b</button></form>')).toBe("<form><button>b</button></form>");
    expect(stripHostileElements('<form action="/local">x</form>')).toBe('<form action="/local">x</form>');
  });

  it("drops any ping attribute whole", () => {
    expect(stripHostileElements('<a href="/x" ping="https://t.example">x</a>')).toBe('<a href="/x">x</a>');
  });

  it("drops a style attribute that can fetch, including escaped and commented forms", () => {
    expect(stripHostileElements('<div style="background: url(https://t.example/x)">a</div>')).toBe("<div>a</div>");
    expect(stripHostileElements("<div style=\"@import 'x.css'\">a</div>")).toBe("<div>a</div>");
    expect(stripHostileElements('<div style="width: expression(alert(1))">a</div>')).toBe("<div>a</div>");
    expect(stripHostileElements('<div style="background-image: image-set(\'a.png\' 1x)">a</div>')).toBe("<div>a</div>");
    expect(stripHostileElements('<div style="background:u\\72l(x)">a</div>')).toBe("<div>a</div>");
    expect(stripHostileElements('<div style="background:ur/**/l(x)">a</div>')).toBe("<div>a</div>");
  });

  it("keeps a style attribute that cannot fetch", () => {
    expect(stripHostileElements('<span style="color: red; font-weight: bold">a</span>')).toBe('<span style="color: red; font-weight: bold">a</span>');
  });

  it("drops href on SVG elements that fetch on sight", () => {
    expect(stripHostileElements('<svg><image href="https://t.example/i.png"/><use xlink:href="#local"/></svg>')).toBe('<svg><image/><use xlink:href="#local"/></svg>');
  });

  it("handles tags split by slashes and unquoted values the way a browser does", () => {
    expect(stripHostileElements("<img/src=x/onerror=alert(1)>")).toBe("<img>");
    expect(stripHostileElements("<svg/onload=alert(1)>")).toBe("<svg>");
  });

  it("reaches a fixed point when removal forms a new tag", () => {
    expect(stripHostileElements("<scr<script>x</script>ipt>alert(1)</script>")).not.toMatch(/<script/i);
    expect(stripHostileElements("<img src=x on<b>error=alert(1)>")).not.toMatch(/onerror/i);
  });

  it("leaves text without tags, comparisons and tags with nothing to drop byte for byte", () => {
    const text = "if a < b and c > d then <em>fine</em> <br/> <custom-el data-x='1'>";
    expect(stripHostileElements(text)).toBe(text);
  });

  it("removes only the open tag of an unclosed script, keeping the prose after it", () => {
    expect(stripHostileElements("Put it in a <script> tag, then save.")).toBe("Put it in a  tag, then save.");
  });
});
