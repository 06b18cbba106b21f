#!/usr/bin/env bash
# Reproduces Jain et al. §5 (issue 5): 20 Newsgroups pairs (logistic regression, pooled
# train+test files split 50/50, dropout rate 0.5) and Boston housing (linear regression,
# 300 training rows, dropout rate 0.05, MSE); random and adversarial removal; 20 repetitions.
# Usage: scripts/reproduce_jain.sh BUILD_DIR OUT_DIR   (then scripts/plot_jain.py OUT_DIR)
set -euo pipefail
build=${1:?build dir}; out=${2:?output dir}
shared=$(cd "$(dirname "$0")/../../shared" && pwd)
cli="$build/app/cli/epsilonlab-cli"
mkdir -p "$out"
for pair in alt.atheism_vs_talk.religion.misc comp.graphics_vs_comp.windows.x rec.sport.baseball_vs_sci.crypt; do
  pooled="$out/$pair.pooled.libsvm"
  cat "$shared/datasets/20newsgroups/$pair.train.libsvm" "$shared/datasets/20newsgroups/$pair.test.libsvm" > "$pooled"
  features=$(wc -l < "$shared/datasets/20newsgroups/$pair.vocab.txt")
  for removal in random adversarial; do
    nice "$cli" stability --data "$pooled" --features "$features" --split 0.5 --model logistic \
      --dropout-rate 0.5 --removal "$removal" --rho 0:0.9:10 --repeats 20 --seed 1 \
      --out "$out/$pair.$removal.json"
  done
  rm -f "$pooled"
done
for removal in random adversarial; do
  # 206 of 506 rows held out: 300 training rows, as in the paper.
  nice "$cli" stability --data "$shared/datasets/boston_housing/boston_housing.csv" --label MEDV --task regression \
    --split 0.40711462 --model linear --dropout-rate 0.05 --removal "$removal" --rho 0:0.9:10 --repeats 20 \
    --seed 1 --out "$out/boston.$removal.json"
done
