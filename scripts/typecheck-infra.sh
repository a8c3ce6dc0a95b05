#!/usr/bin/env bash
# Type-checks sst.config.ts and stacks/ against SST's platform types, without AWS.
#
# 1. If .sst/platform is missing, incomplete or from another sst version, generate it with
#    `sst install`. That needs no AWS account and no Pulumi; it does run `bun install` for the
#    platform's own packages (@pulumi/aws and friends), which come from the npm registry or bun's
#    cache. SST_SKIP_DEPENDENCY_CHECK stops the CLI downloading Pulumi and Bun; the devDependency
#    `bun` stands in for the latter. SST_BUN_PATH must be absolute: the CLI runs bun from inside
#    .sst/platform, where a relative path no longer resolves.
# 2. `tsc -p stacks/tsconfig.json`: every error anywhere fails the check.
# 3. The same program again with the root tsconfig's stricter flags, failing only on errors in our
#    own files (SST's platform source does not pass them; see stacks/tsconfig.json).
set -euo pipefail

cd "$(dirname "$0")/.."

platform=.sst/platform
sst_version=$(node -p "require('./node_modules/sst/package.json').version")

if [[ ! -f $platform/config.d.ts || ! -d $platform/node_modules/@pulumi/aws \
  || "$(cat "$platform/version" 2>/dev/null || true)" != "$sst_version" ]]; then
  echo "Generating SST platform types (sst $sst_version) into $platform ..."
  started=$SECONDS
  SST_SKIP_DEPENDENCY_CHECK=1 SST_TELEMETRY_DISABLED=1 \
    SST_BUN_PATH="$PWD/node_modules/bun/bin/bun.exe" \
    npx sst install --stage dev
  echo "Platform types generated in $((SECONDS - started)) s."
fi

echo "Type-checking sst.config.ts and stacks/ ..."
npx tsc -p stacks/tsconfig.json

echo "Re-checking our files with the root tsconfig's stricter flags ..."
strict_output=$(npx tsc -p stacks/tsconfig.json --pretty false \
  --noUncheckedIndexedAccess --verbatimModuleSyntax --erasableSyntaxOnly 2>&1 || true)
# Keep each diagnostic (and its indented continuation lines) whose file is ours.
ours=$(printf '%s\n' "$strict_output" | awk '
  /^[^ ].*\([0-9]+,[0-9]+\): error / { keep = ($0 ~ /^(sst\.config\.ts|stacks\/)/) }
  /^[^ ]/ && !/\([0-9]+,[0-9]+\): error / { keep = 0 }
  keep { print }
')
if [[ -n $ours ]]; then
  printf '%s\n' "$ours"
  exit 1
fi

echo "Infrastructure type check passed."
