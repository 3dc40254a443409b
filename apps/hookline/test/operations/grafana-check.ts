import { dirname, join } from 'node:path';
import ts from 'typescript';

const SCHEMA_MODULE = join(__dirname, 'grafana-schema');

/** One finding: which dashboard (by the name given), which line of its JSON, and what the schema says. */
export interface SchemaError {
  readonly dashboard: string;
  readonly line: number;
  readonly message: string;
}

/**
 * Checks dashboard files against Grafana's schema (see grafana-schema.ts) by compiling each one's JSON as a
 * value of that type: TypeScript's checker then reports unknown keys (excess properties), wrong value types and
 * enum values the schema does not list, at the JSON line they are on. All dashboards are checked in one program.
 */
export function checkDashboards(dashboards: Readonly<Record<string, string>>): SchemaError[] {
  const root = dirname(SCHEMA_MODULE);
  const files = new Map<string, { name: string; text: string }>();
  for (const [name, json] of Object.entries(dashboards)) {
    const path = join(root, `__dashboard_${files.size}.ts`);
    // The JSON starts on the source's second line, so a finding's 0-based line is its 1-based line in the JSON.
    const text = `import type { GrafanaDashboard } from ${JSON.stringify(SCHEMA_MODULE)};\nexport const dashboard: GrafanaDashboard = ${json};\n`;
    files.set(path, { name, text });
  }
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    skipLibCheck: true,
    types: [],
    module: ts.ModuleKind.CommonJS,
    moduleResolution: ts.ModuleResolutionKind.Node10,
    target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (path) => files.has(path) || ts.sys.fileExists(path);
  host.readFile = (path) => files.get(path)?.text ?? readFile(path);
  host.getSourceFile = (path, version, onError) => {
    const file = files.get(path);
    return file ? ts.createSourceFile(path, file.text, version) : getSourceFile(path, version, onError);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const errors: SchemaError[] = [];
  for (const diagnostic of ts.getPreEmitDiagnostics(program)) {
    const file = diagnostic.file && files.get(diagnostic.file.fileName);
    const message = ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n');
    if (!file || diagnostic.start === undefined) {
      // A finding outside the dashboards means the schema types themselves did not compile.
      errors.push({ dashboard: '(schema)', line: 0, message });
      continue;
    }
    const { line } = diagnostic.file!.getLineAndCharacterOfPosition(diagnostic.start);
    errors.push({ dashboard: file.name, line, message });
  }
  return errors;
}
