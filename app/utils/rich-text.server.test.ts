// The one rule for stored rich text: the allow-list, links (rel, target, schemes), Nepali kept, and the
// conversion of any submitted text (the editor's HTML, the textarea's HTML, plain text) into the stored HTML,
// which the editor opens and writes back unchanged.
import fc from "fast-check";
import { createHeadlessEditor } from "@lexical/headless";
import { withDOM } from "@lexical/headless/dom";
import { $generateHtmlFromNodes, $generateNodesFromDOM } from "@lexical/html";
import { $getRoot, $insertNodes } from "lexical";
import { describe, expect, it } from "vitest";
import { htmlForEditing, safeLinkUrl } from "./rich-text";
import { RICH_TEXT_NODES, $richTextHtml } from "./rich-text-lexical";
import { plainTextToHtml, sanitizeRichText, toStoredHtml } from "./rich-text.server";

/** Nothing that runs: no script or style, no event attribute, no javascript:/data: address, no frame. */
function expectHarmless(html: string) {
  expect(html).not.toMatch(/<\s*(script|style|iframe|object|embed|svg|math|img|form|input|base|meta|link)\b/i);
  expect(html).not.toMatch(/\son[a-z]+\s*=/i);
  expect(html).not.toMatch(/\sstyle\s*=/i);
  expect(html).not.toMatch(/(javascript|data|vbscript)\s*:/i);
}

describe("sanitizeRichText: the allow-list", () => {
  it("keeps paragraphs, headings, bold, italic, underline, strikethrough, lists and links", () => {
    const html =
      '<h2>Title</h2><h3>Sub</h3><h4>Small</h4><p>A <strong>b</strong> <em>i</em> <u>u</u> <s>s</s><br />next</p><ul><li>one<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li></ol><p><a href="https://www.example.com/x?y=1">site</a></p>';
    expect(sanitizeRichText(html)).toBe(
      '<h2>Title</h2><h3>Sub</h3><h4>Small</h4><p>A <strong>b</strong> <em>i</em> <u>u</u> <s>s</s><br />next</p><ul><li>one<ul><li>nested</li></ul></li></ul><ol start="3"><li>three</li></ol><p><a href="https://www.example.com/x?y=1" rel="noopener noreferrer" target="_blank">site</a></p>',
    );
  });

  it("drops script, style, iframes, objects, svg and images with their content", () => {
    const out = sanitizeRichText(
      '<p>a</p><script>alert(1)</script><style>p{color:red}</style><iframe src="https://evil.example">x</iframe><object data="x">o</object><embed src="x"><svg><script>alert(2)</script></svg><img src="x" onerror="alert(3)"><noscript>n</noscript><template>t</template><p>b</p>',
    );
    expect(out).toBe("<p>a</p><p>b</p>");
  });

  it("drops every attribute but a link's address (event handlers, style, class, id, src)", () => {
    const out = sanitizeRichText(
      '<p onclick="alert(1)" style="color:red" class="x" id="y" onmouseover=alert(2)>text</p><h2 onload="x()">h</h2><li value="2">i</li>',
    );
    expect(out).toBe("<p>text</p><h2>h</h2><li>i</li>");
    expectHarmless(out);
  });

  it("unwraps any other tag, keeping its text", () => {
    expect(
      sanitizeRichText(
        "<section><span style='x'>one</span> <font color=red>two</font> <table><tr><td>three</td></tr></table></section>",
      ),
    ).toBe("one two three");
  });

  it("brings b, i, strike and headings into the allowed forms", () => {
    expect(
      sanitizeRichText("<b>b</b><i>i</i><strike>s</strike><del>d</del><h1>one</h1><h5>five</h5><h6>six</h6>"),
    ).toBe("<strong>b</strong><em>i</em><s>s</s><s>d</s><h2>one</h2><h4>five</h4><h4>six</h4>");
  });

  it("keeps only a numeric start on a numbered list", () => {
    expect(sanitizeRichText('<ol start="5" type="a" reversed><li>x</li></ol>')).toBe('<ol start="5"><li>x</li></ol>');
    expect(sanitizeRichText('<ol start="x"><li>x</li></ol>')).toBe("<ol><li>x</li></ol>");
    expect(sanitizeRichText('<ol start="1"><li>x</li></ol>')).toBe("<ol><li>x</li></ol>");
  });
});

describe("sanitizeRichText: links", () => {
  it('gives every link rel="noopener noreferrer", whatever rel or target was sent', () => {
    expect(sanitizeRichText('<a href="https://x.example" rel="opener" target="_self">x</a>')).toBe(
      '<a href="https://x.example" rel="noopener noreferrer" target="_blank">x</a>',
    );
    expect(sanitizeRichText('<a href="mailto:a@b.example">m</a> <a href="tel:+9779812345678">t</a>')).toBe(
      '<a href="mailto:a@b.example" rel="noopener noreferrer">m</a> <a href="tel:+9779812345678" rel="noopener noreferrer">t</a>',
    );
    expect(sanitizeRichText('<a href="/terms">site</a>')).toBe('<a href="/terms" rel="noopener noreferrer">site</a>');
  });

  it("unlinks javascript:, data:, vbscript:, protocol-relative and disguised addresses, keeping the text", () => {
    for (const href of [
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      " javascript:alert(1)",
      "java\tscript:alert(1)",
      "java&#x09;script:alert(1)",
      "&#106;avascript:alert(1)",
      "&#x6A;avascript&#x3A;alert(1)",
      "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
      "vbscript:msgbox(1)",
      "file:///etc/passwd",
      "//evil.example/x",
      "/\\evil.example",
      "https:evil",
      "",
    ]) {
      const out = sanitizeRichText(`<p><a href="${href}" onclick="x()">click</a></p>`);
      expect(out, href).toBe("<p><a>click</a></p>");
    }
  });

  it("the link rule", () => {
    expect(safeLinkUrl("https://www.example.com/a b")).toBe("https://www.example.com/ab");
    expect(safeLinkUrl("www.example.com/page")).toBe("https://www.example.com/page");
    expect(safeLinkUrl("#top")).toBe("#top");
    expect(safeLinkUrl("ftp://example.com")).toBeNull();
    expect(safeLinkUrl("example")).toBeNull();
    expect(safeLinkUrl("http://")).toBeNull();
  });
});

describe("sanitizeRichText: text", () => {
  it("keeps Nepali (Devanagari) text exactly", () => {
    const nepali = "<h2>नियम तथा सर्तहरू</h2><p>एक फोन नम्बरमा <strong>एउटा मात्र</strong> पूर्व-दर्ता। रु. ५०,०००</p>";
    expect(sanitizeRichText(nepali)).toBe(nepali);
  });

  it("escapes text that looks like markup", () => {
    expect(sanitizeRichText("<p>5 &lt; 6 &amp; &quot;q&quot;</p>")).toBe('<p>5 &lt; 6 &amp; "q"</p>');
  });
});

describe("toStoredHtml: the stored form of any submitted text", () => {
  it("plain text (the textarea without tags): paragraphs at blank lines, line breaks within", async () => {
    expect(plainTextToHtml("One\r\ntwo\r\n\r\n  Three & <4>  \n")).toBe(
      "<p>One<br />two</p><p>Three &amp; &lt;4&gt;</p>",
    );
    expect(await toStoredHtml("One\ntwo\n\nनेपाली")).toBe("<p>One<br />two</p><p>नेपाली</p>");
  });

  it("empty, blank and markup without text store as empty", async () => {
    for (const empty of ["", "  \n ", "<p></p>", "<p><br></p><script>x</script>", "<img src=x onerror=alert(1)>"])
      expect(await toStoredHtml(empty), empty).toBe("");
  });

  it("the textarea's HTML: script, onerror and a javascript: link stored as none of them", async () => {
    const out = await toStoredHtml(
      '<p>Safe <strong>bold</strong></p><script>alert("x")</script><img src="x" onerror="alert(1)"><p><a href="javascript:alert(1)">bad link</a> and <a href="https://www.example.com">good</a></p>',
    );
    expect(out).toBe(
      '<p>Safe <strong>bold</strong></p><p>bad link and <a href="https://www.example.com" rel="noopener noreferrer" target="_blank">good</a></p>',
    );
    expectHarmless(out);
  });

  it("Lexical's own HTML export (spans, styles, b around strong, values) becomes the clean form", async () => {
    const lexical =
      '<h2 dir="ltr"><span style="white-space: pre-wrap;">Title</span></h2><p dir="ltr"><span style="white-space: pre-wrap;">Hello </span><b><strong class="x" style="white-space: pre-wrap;">bold</strong></b><i><em style="white-space: pre-wrap;">it</em></i></p><ul><li value="1"><span style="white-space: pre-wrap;">one</span></li><li value="2"><ul><li value="1"><span>nested</span></li></ul></li></ul>';
    expect(await toStoredHtml(lexical)).toBe(
      "<h2>Title</h2><p>Hello <strong>bold</strong><em>it</em></p><ul><li>one<ul><li>nested</li></ul></li></ul>",
    );
  });

  it("inline content at the top becomes a paragraph; empty blocks at the ends go", async () => {
    expect(await toStoredHtml("<p></p>Intro <em>text</em><h1>Head</h1><p><br></p><p></p>")).toBe(
      "<p>Intro <em>text</em></p><h2>Head</h2>",
    );
  });

  it("is stable: storing the stored HTML again changes nothing", async () => {
    const once = await toStoredHtml(
      '<h3>Prizes</h3><ol start="2"><li><strong>Rs. 5,000</strong> <a href="www.example.com">details</a></li><li>नगद छुट<br>दोस्रो लाइन</li></ol><p>end</p>',
    );
    expect(once).toBe(
      '<h3>Prizes</h3><ol start="2"><li><strong>Rs. 5,000</strong> <a href="https://www.example.com" rel="noopener noreferrer" target="_blank">details</a></li><li>नगद छुट<br />दोस्रो लाइन</li></ol><p>end</p>',
    );
    expect(await toStoredHtml(once)).toBe(once);
    // Laid out one block per line for the textarea, and saved unchanged: the same HTML.
    expect(htmlForEditing(once)).toBe(
      '<h3>Prizes</h3>\n<ol start="2">\n<li><strong>Rs. 5,000</strong> <a href="https://www.example.com" rel="noopener noreferrer" target="_blank">details</a></li>\n<li>नगद छुट<br />दोस्रो लाइन</li>\n</ol>\n<p>end</p>',
    );
    expect(await toStoredHtml(htmlForEditing(once))).toBe(once);
    const nested = "<ul><li>a<ul><li>b</li></ul></li><li>c</li></ul>";
    expect(await toStoredHtml(htmlForEditing(nested))).toBe(nested);
  });

  it("the editor opens the stored HTML and writes it back unchanged (the same nodes and writer as the browser)", async () => {
    const stored = await toStoredHtml(
      '<h2>T</h2><p>a <strong><em>b</em></strong> <u>c</u> <s>d</s> <a href="mailto:x@y.example">m</a></p><ul><li>x<ul><li>y</li></ul></li><li>z</li></ul>',
    );
    const editor = createHeadlessEditor({ nodes: RICH_TEXT_NODES, onError: (e) => { throw e; } }); // prettier-ignore
    const written = withDOM((window) => {
      editor.update(
        () => {
          const dom = new window.DOMParser().parseFromString(stored, "text/html");
          $getRoot().clear().select();
          $insertNodes($generateNodesFromDOM(editor, dom as unknown as Document));
        },
        { discrete: true },
      );
      return {
        ours: editor.getEditorState().read($richTextHtml),
        lexical: editor.getEditorState().read(() => $generateHtmlFromNodes(editor, null)),
      };
    });
    expect(written.ours).toBe(stored);
    // Lexical's own export of the same content stores the same HTML too.
    expect(await toStoredHtml(written.lexical)).toBe(stored);
  });

  it("whatever is sent, what is stored is harmless, stable (also as laid out for the textarea) and keeps its words (property)", async () => {
    const markup = [
      "<p>",
      "</p>",
      "<b>",
      "</b>",
      "<em>",
      "</em>",
      "<ul><li>",
      "</li></ul>",
      "<h1>",
      "</h1>",
      "<br>",
      '<a href="https://ok.example">',
      '<a href="javascript:alert(1)">',
      '<a href="data:text/html,x">',
      "</a>",
      '<img src=x onerror="alert(1)">',
      "<script>alert(1)</script>",
      '<p style="x" onclick="y()">',
      "<svg onload=alert(1)>",
      "<iframe src=//evil>",
      "नेपाली",
      " words ",
      "&lt;",
      "<",
      ">",
      '"',
    ];
    const piece = fc.oneof(fc.constantFrom(...markup), fc.string({ maxLength: 8 }));
    // Words are kept unless something swallows them: an unclosed script, svg or frame, or a stray "<".
    const keepsWords = (pieces: string[]) =>
      pieces.every((p) => (markup.includes(p) ? p !== "<" && !/<(script|svg|iframe)/.test(p) : !p.includes("<")));
    await fc.assert(
      fc.asyncProperty(fc.array(piece, { maxLength: 14 }), async (pieces) => {
        const stored = await toStoredHtml(pieces.join(""));
        expectHarmless(stored);
        expect(await toStoredHtml(stored)).toBe(stored);
        expect(await toStoredHtml(htmlForEditing(stored))).toBe(stored);
        if (pieces.includes("नेपाली") && keepsWords(pieces)) expect(stored).toContain("नेपाली");
      }),
      { numRuns: 150 },
    );
  });
});
