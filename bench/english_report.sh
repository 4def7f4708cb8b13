#!/usr/bin/env bash
# The English figures a model change is judged by, in one file (session 11):
#   bash bench/english_report.sh MODEL_DIR|default OUT_PREFIX
# writes OUT_PREFIX.txt with, for the `default` preset (and the tagger alone where noted):
#   - the report-only probe splits pooled (bench/probe_eval.py --file ...), default and tagger alone;
#   - each report-only split, tune34, tune35 (session 12, blind) tune37 (session 13, blind) tune42 and tune44 (session 14, blind), tune45 (session 15, blind), tune50 (session 16, blind), tune55 (session 17, blind), tune59 (session 18, blind) alone (token, strict labelled and strict exact lines);
#   - PhysioNet dev, ages over89, default and tagger alone (bench/rules_eval.py), and default with
#     places safe_harbor too (the PhysioNet guideline: ages over 89, no states or countries);
#     and with professions safe_harbor as well (the guideline in full: no occupations either);
#   - the ACI-Bench silver check (bench/visit_silver.py).
# Aggregate lines only: no error of a report-only split or of PhysioNet dev is printed.
set -u
cd "$(dirname "$0")/.."
M=$1; O=$2
PY=${PYTHON:-.venv/bin/python}
MA=(); [ "$M" != "default" ] && MA=(--model "$M")
P=tests/fixtures/english_probe
FRESH="check tune7 tune10 tune16 tune18 tune20 tune30 tune33"
FA=(); for s in $FRESH; do FA+=(--file "$P/$s.txt"); done
{
for det in default tagger; do
  echo "## fresh pooled $det"
  $PY bench/probe_eval.py "${FA[@]}" --detectors $det "${MA[@]}" 2>&1 |
    grep -E "^(binary token|entity strict|  (outpatient|transcript|query|letter|message|discharge|nursing) )|^  (AGE|CONTACT|DATE|ID|LOCATION|NAME|PROFESSION) "
done
for s in $FRESH tune34 tune35 tune37 tune42 tune44 tune45 tune50 tune55 tune59; do
  echo "## $s default"
  $PY bench/probe_eval.py --split $s --detectors default "${MA[@]}" 2>&1 | grep -E "^binary token|^entity strict \((labels|exact)\)"
done
for det in default tagger; do
  echo "## physionet dev $det"
  $PY bench/rules_eval.py --corpus physionet --split dev --detectors $det --ages over89 "${MA[@]}" 2>&1 |
    grep -E "^binary token|^entity strict \(labels\)|^  (DOCTOR|PATIENT|RELATIVE|DATE|LOCATION|NAME) "
done
echo "## physionet dev default, ages over89 + places safe_harbor (the PhysioNet guideline)"
$PY bench/rules_eval.py --corpus physionet --split dev --detectors default --ages over89 --places safe_harbor "${MA[@]}" 2>&1 |
  grep -E "^binary token|^entity strict \(labels\)|^  (DOCTOR|PATIENT|RELATIVE) "
echo "## physionet dev default, ages over89 + places safe_harbor + professions safe_harbor (the PhysioNet guideline in full)"
$PY bench/rules_eval.py --corpus physionet --split dev --detectors default --ages over89 --places safe_harbor --professions safe_harbor "${MA[@]}" 2>&1 |
  grep -E "^binary token|^entity strict \(labels\)|^  (DOCTOR|PATIENT|RELATIVE) "
echo "## visit silver"; $PY bench/visit_silver.py "${MA[@]}" 2>&1 | tail -1
} > "$O.txt" 2>&1
echo "wrote $O.txt"
