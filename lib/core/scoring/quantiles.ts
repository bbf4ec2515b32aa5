/**
 * The distribution functions the planner and the drift test need, pure:
 *  - the standard normal quantile Φ⁻¹(p), by Wichura's algorithm AS 241 (PPND16, Applied
 *    Statistics 37(3), 1988), accurate to about 1e-16, so z values for power and significance
 *    (1.959963984540054 for p = 0.975) match the published tables;
 *  - the standard normal CDF Φ(x), from the complementary error function (Numerical Recipes'
 *    Chebyshev fit, relative error below 1.2e-7);
 *  - Student's t quantile, exact for 1 and 2 degrees of freedom and otherwise the Cornish–Fisher
 *    expansion of Abramowitz & Stegun 26.7.5 (error below 1e-4 from 10 degrees of freedom,
 *    about 5e-3 at 3).
 */

/* eslint-disable no-loss-of-precision -- AS 241's coefficients as published (to 20 digits), so they can be checked against the paper; a double keeps what it can. */
const A = [3.387132872796366608, 133.14166789178437745, 1971.5909503065514427, 13731.693765509461125, 45921.953931549871457, 67265.770927008700853, 33430.575583588128105, 2509.0809287301226727];
const B = [1, 42.313330701600911252, 687.1870074920579083, 5394.1960214247511077, 21213.794301586595867, 39307.89580009271061, 28729.085735721942674, 5226.495278852545925];
const C = [1.42343711074968357734, 4.6303378461565452959, 5.7694972214606914055, 3.64784832476320460504, 1.27045825245236838258, 0.24178072517745061177, 0.0227238449892691845833, 7.7454501427834140764e-4];
const D = [1, 2.05319162663775882187, 1.6763848301838038494, 0.68976733498510000455, 0.14810397642748007459, 0.0151986665636164571966, 5.475938084995344946e-4, 1.05075007164441684324e-9];
const E = [6.6579046435011037772, 5.4637849111641143699, 1.7848265399172913358, 0.29656057182850489123, 0.026532189526576123093, 0.0012426609473880784386, 2.71155556874348757815e-5, 2.01033439929228813265e-7];
const F = [1, 0.59983220655588793769, 0.13692988092273580531, 0.0148753612908506148525, 7.868691311456132591e-4, 1.8463183175100546818e-5, 1.4215117583164458887e-7, 2.04426310338993978564e-15];

/* eslint-enable no-loss-of-precision */

/** Σ coefficients[i]·x^i, evaluated by Horner's rule. */
function poly(coefficients: readonly number[], x: number): number {
  let v = 0;
  for (let i = coefficients.length - 1; i >= 0; i--) v = v * x + coefficients[i]!;
  return v;
}

/** Φ⁻¹(p) for p in (0, 1); a p outside is a RangeError that says so. */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a normal quantile needs a probability strictly between 0 and 1, got ${p}`);
  const q = p - 0.5;
  if (Math.abs(q) <= 0.425) {
    const r = 0.180625 - q * q;
    return (q * poly(A, r)) / poly(B, r);
  }
  let r = Math.sqrt(-Math.log(q < 0 ? p : 1 - p));
  let z: number;
  if (r <= 5) {
    r -= 1.6;
    z = poly(C, r) / poly(D, r);
  } else {
    r -= 5;
    z = poly(E, r) / poly(F, r);
  }
  return q < 0 ? -z : z;
}

/** Φ(x) = erfc(−x/√2)/2. */
export function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + 0.5 * z);
  const erfc =
    t *
    Math.exp(
      -z * z -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}

/** The p-quantile of Student's t with ν degrees of freedom (ν ≥ 1). */
export function studentTQuantile(p: number, nu: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`a t quantile needs a probability strictly between 0 and 1, got ${p}`);
  if (!(nu >= 1)) throw new RangeError(`Student's t needs at least 1 degree of freedom, got ${nu}`);
  if (nu === 1) return Math.tan(Math.PI * (p - 0.5));
  if (nu === 2) return (2 * p - 1) / Math.sqrt(2 * p * (1 - p));
  const x = normalQuantile(p);
  const x2 = x * x;
  const g1 = (x * (x2 + 1)) / 4;
  const g2 = (x * ((5 * x2 + 16) * x2 + 3)) / 96;
  const g3 = (x * (((3 * x2 + 19) * x2 + 17) * x2 - 15)) / 384;
  const g4 = (x * ((((79 * x2 + 776) * x2 + 1482) * x2 - 1920) * x2 - 945)) / 92160;
  return x + g1 / nu + g2 / nu ** 2 + g3 / nu ** 3 + g4 / nu ** 4;
}
