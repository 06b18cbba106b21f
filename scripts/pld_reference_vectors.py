#!/usr/bin/env python3
"""Reference ε of Google's dp_accounting PLD accountant for the PLD accountant's tests.

This script runs OUTSIDE the repository, against a copy of dp_accounting fetched from its
public repository (google/differential-privacy, python/dp_accounting), which is never
committed here. With Debian's python3-numpy, python3-scipy, python3-absl, python3-attr and
python3-mpmath installed:

    python3 scripts/pld_reference_vectors.py --dp-accounting /path/to/python/dp_accounting \
        > docs/dp-accounting-pld-vectors.csv
    python3 scripts/pld_reference_vectors.py --dp-accounting /path/to/python/dp_accounting --time

Each row is the Poisson-subsampled Gaussian (noise multiplier σ, sampling rate q) composed T
times, ε at δ, from dp_accounting's PLDAccountant under the neighbouring relation of the row
(add_remove: ADD_OR_REMOVE_ONE; replace_one: REPLACE_ONE, where a row is replaced by another,
the pair (1−q)N(0, σ²) + qN(−1, σ²) against (1−q)N(0, σ²) + qN(1, σ²)).

dp_accounting's ε is pessimistic: its discretisation (connect-the-dots, interval h) only ever
raises ε, by an amount that shrinks like h². The column discretization_error is the Richardson
estimate of that excess, (4/3)(ε(h) − ε(h/2)), and for one step (T = 1) at least h, one grid
step, the most its ε can exceed the exact one there; h starts at dp_accounting's default 1e-4 and is
halved until the estimate is at most 2e-4 ε (or h reaches 1e-4/16), so that the reference is
close to the exact ε and a more exact accountant may lie below ε by at most that estimate.

--time prints dp_accounting's wall time for ε and for calibration (σ for a target ε, its
calibrate_dp_mechanism) at q = 0.01, T = 20,000, δ = 1e-5 with its default interval.
"""

import argparse
import math
import sys
import time


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--dp-accounting', required=True,
                    help='the directory python/dp_accounting of a fetched google/differential-privacy')
    ap.add_argument('--time', action='store_true', help='time ε and calibration instead of writing vectors')
    args = ap.parse_args()
    sys.path.insert(0, args.dp_accounting)
    import dp_accounting as dpa  # pylint: disable=import-outside-toplevel
    from dp_accounting.pld import pld_privacy_accountant  # pylint: disable=import-outside-toplevel

    relations = {'add_remove': dpa.NeighboringRelation.ADD_OR_REMOVE_ONE,
                 'replace_one': dpa.NeighboringRelation.REPLACE_ONE}

    def event(sigma, q, steps):
        return dpa.SelfComposedDpEvent(dpa.PoissonSampledDpEvent(q, dpa.GaussianDpEvent(sigma)), steps)

    def epsilon(relation, sigma, q, steps, delta, h=1e-4):
        acc = pld_privacy_accountant.PLDAccountant(relations[relation], value_discretization_interval=h)
        acc.compose(event(sigma, q, steps))
        return acc.get_epsilon(delta)

    if args.time:
        for sigma, target in [(0.9625, 10.0), (5.3357, 1.0), (9.9893, 0.5)]:
            t0 = time.perf_counter()
            eps = epsilon('add_remove', sigma, 0.01, 20000, 1e-5)
            t1 = time.perf_counter()
            sig = dpa.calibrate_dp_mechanism(
                pld_privacy_accountant.PLDAccountant, lambda s: event(s, 0.01, 20000), target, 1e-5,
                dpa.LowerEndpointAndGuess(0.3, 1.0))
            t2 = time.perf_counter()
            print(f'sigma={sigma} eps={eps:.6f} eps_time_s={t1 - t0:.3f} | '
                  f'target={target} calibrated_sigma={sig:.6f} calibration_time_s={t2 - t1:.3f}', flush=True)
        return

    rows = []
    # add/remove: a grid around DP-SGD's usual settings, q = 1 (the Gaussian mechanism), and
    # the headline settings (q = 0.01, T = 20,000, δ = 1e-5 at ε ≈ 10, 1, 0.5).
    for sigma in [0.8, 1.0, 2.0, 4.0, 10.0]:
        for q in [0.004, 0.01, 0.1]:
            for steps in [1, 100, 1000, 10000]:
                rows.append(('add_remove', sigma, q, steps, 1e-5))
    for sigma in [0.7, 1.0, 4.0]:
        for steps in [1, 10]:
            rows.append(('add_remove', sigma, 1.0, steps, 1e-5))
    for sigma in [0.9625, 5.3357, 9.9893]:
        rows.append(('add_remove', sigma, 0.01, 20000, 1e-5))
    for delta in [1e-3, 1e-7]:
        rows.append(('add_remove', 2.0, 0.01, 1000, delta))
    # replace-one: a smaller grid and the headline settings.
    for sigma in [1.0, 4.0]:
        for q in [0.01, 0.1]:
            for steps in [1, 100, 1000]:
                rows.append(('replace_one', sigma, q, steps, 1e-5))
    for sigma in [1.0, 4.0]:
        rows.append(('replace_one', sigma, 1.0, 1, 1e-5))
    for sigma in [0.9625, 5.3357, 9.9893]:
        rows.append(('replace_one', sigma, 0.01, 20000, 1e-5))

    print('relation,noise_multiplier,sampling_rate,steps,delta,value_discretization_interval,epsilon,'
          'discretization_error')
    for relation, sigma, q, steps, delta in rows:
        h = 1e-4
        while True:
            eps_h = epsilon(relation, sigma, q, steps, delta, h)
            eps_half = epsilon(relation, sigma, q, steps, delta, h / 2)
            err = max(0.0, 4.0 / 3.0 * (eps_h - eps_half))
            if err <= 2e-4 * eps_h or h <= 1e-4 / 16 or not math.isfinite(eps_h):
                break
            h /= 2
        if steps == 1:
            # One step: δ is exact at the grid points, so ε is at most one grid step too large,
            # and the excess need not shrink like h² (the Richardson estimate can miss it).
            err = max(err, h)
        print(f'{relation},{sigma!r},{q!r},{steps},{delta!r},{h!r},{eps_h!r},{err!r}', flush=True)
    return


if __name__ == '__main__':
    main()
