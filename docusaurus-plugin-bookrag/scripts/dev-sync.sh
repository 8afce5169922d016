#!/usr/bin/env bash
# Development only: rebuild lib/ and copy it into a site's installed copy of the plugin
# (npm installs this folder as a copy, not a link: see the README).
set -euo pipefail
cd "$(dirname "$0")/.."
npm run --silent build
site=${1:?usage: scripts/dev-sync.sh SITE_DIR}
rm -rf "$site/node_modules/docusaurus-plugin-bookrag/lib"
cp -r lib "$site/node_modules/docusaurus-plugin-bookrag/lib"
# webpack's persistent cache trusts node_modules not to change without a version bump.
rm -rf "$site/node_modules/.cache"
