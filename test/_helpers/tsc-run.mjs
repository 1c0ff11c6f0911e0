// Child process of test/_helpers/tsc.ts: type-checks with the real compiler so a long compile never blocks a vitest
// worker. Reads {files, tsconfig, options?, overrides?} as JSON on stdin; prints the diagnostics as JSON on stdout.
import { dirname, resolve } from "node:path";
import ts from "typescript";

let input = "";
for await (const chunk of process.stdin) input += chunk;
const job = JSON.parse(input);

let options = {};
if (job.tsconfig) {
  const cfg = ts.readConfigFile(job.tsconfig, ts.sys.readFile);
  if (cfg.error) throw new Error(ts.flattenDiagnosticMessageText(cfg.error.messageText, "\n"));
  options = ts.parseJsonConfigFileContent(cfg.config, ts.sys, dirname(job.tsconfig)).options;
}
if (job.options) options = { ...options, ...ts.convertCompilerOptionsFromJson(job.options, process.cwd()).options };
options.noEmit = true;

const over = new Map(Object.entries(job.overrides ?? {}).map(([k, v]) => [resolve(k), v]));
const host = ts.createCompilerHost(options, true);
const readFile = host.readFile.bind(host);
host.readFile = (f) => over.get(resolve(f)) ?? readFile(f);
const fileExists = host.fileExists.bind(host);
host.fileExists = (f) => over.has(resolve(f)) || fileExists(f);
const getSourceFile = host.getSourceFile.bind(host);
host.getSourceFile = (f, lang, onError, shouldCreate) => {
  const text = over.get(resolve(f));
  return text === undefined ? getSourceFile(f, lang, onError, shouldCreate) : ts.createSourceFile(f, text, lang, true);
};
const program = ts.createProgram({ rootNames: job.files, options, host });
const out = ts.getPreEmitDiagnostics(program).map((d) => ({
  file: d.file ? resolve(d.file.fileName) : "",
  line: d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0,
  code: d.code,
  message: ts.flattenDiagnosticMessageText(d.messageText, "\n"),
}));
process.stdout.write(JSON.stringify(out));
