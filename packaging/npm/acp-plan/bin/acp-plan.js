#!/usr/bin/env node
// The `acp-plan` command from npm: runs the prebuilt binary of this
// machine's platform package (`@acp-plan/<os>-<cpu>[-<libc>]`, one of the
// launcher's optionalDependencies, which npm installs by its `os`, `cpu`
// and `libc`), with this process's arguments and standard streams, and
// exits as it exits. Node 18 or newer; no dependencies.
"use strict";

const { spawnSync } = require("node:child_process");

/** `-gnu` or `-musl` on Linux (glibc reports its version), else nothing. */
function libc() {
  if (process.platform !== "linux") return "";
  const report = process.report && process.report.getReport();
  return report && report.header && report.header.glibcVersionRuntime ? "-gnu" : "-musl";
}

const platform = `${process.platform}-${process.arch}${libc()}`;
const exe = process.platform === "win32" ? "acp-plan.exe" : "acp-plan";
let binary;
try {
  binary = require.resolve(`@acp-plan/${platform}/bin/${exe}`);
} catch {
  console.error(
    `acp-plan: no prebuilt binary for ${platform} (the package @acp-plan/${platform} is not installed).\n` +
      "Reinstall without --no-optional / --omit=optional, or install from crates.io: cargo install acp-plan",
  );
  process.exit(2);
}

const result = spawnSync(binary, process.argv.slice(2), { stdio: "inherit", windowsHide: true });
if (result.error) {
  console.error(`acp-plan: could not start ${binary}: ${result.error.message}`);
  process.exit(2);
}
if (result.signal) {
  // Ended by a signal: end this process by the same one, as a shell expects.
  process.kill(process.pid, result.signal);
}
process.exit(result.status === null ? 1 : result.status);
