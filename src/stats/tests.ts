/**
 * The paper's significance tests without a statistics library: the exact two-sided
 * McNemar test (a binomial test on the discordant pairs, as scipy / statsmodels compute
 * it) for paired arms, and Spearman's rank correlation with scipy's t-based p-value for
 * "does the official score order models like the decision does". Both rest on the
 * regularized incomplete beta function, implemented here.
 */

const LANCZOS_G = 7;
const LANCZOS = [
  0.99999999999980993, 676.5203681218851, -1259.1392167224028, 771.32342877765313, -176.61502916214059, 12.507343278686905,
  -0.13857109526572012, 9.9843695780195716e-6, 1.5056327351493116e-7,
];

/** ln Γ(x) for x > 0 (Lanczos approximation, about 15 significant digits). */
export function logGamma(x: number): number {
  if (x < 0.5) return Math.log(Math.PI / Math.abs(Math.sin(Math.PI * x))) - logGamma(1 - x);
  const z = x - 1;
  let sum = LANCZOS[0];
  for (let i = 1; i < LANCZOS_G + 2; i++) sum += LANCZOS[i] / (z + i);
  const t = z + LANCZOS_G + 0.5;
  return 0.5 * Math.log(2 * Math.PI) + (z + 0.5) * Math.log(t) - t + Math.log(sum);
}

/** Continued fraction of the incomplete beta (modified Lentz), valid for x < (a+1)/(a+b+2). */
function betaContinuedFraction(a: number, b: number, x: number): number {
  const tiny = 1e-300;
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < tiny) d = tiny;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= 10000; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < tiny) d = tiny;
    c = 1 + aa / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return h;
}

/** The regularized incomplete beta function I_x(a, b) (scipy.special.betainc), a, b > 0. */
export function regularizedBeta(a: number, b: number, x: number): number {
  if (!(a > 0) || !(b > 0) || Number.isNaN(x)) return Number.NaN;
  if (x <= 0) return 0;
  if (x >= 1) return 1;
  const lnFront = logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x);
  const front = Math.exp(lnFront);
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(X ≤ k) for X ~ Binomial(n, p) (scipy.stats.binom.cdf), through I_{1−p}(n−k, k+1). */
export function binomialCdf(k: number, n: number, p: number): number {
  if (k < 0) return 0;
  if (k >= n) return 1;
  const kk = Math.floor(k);
  return regularizedBeta(n - kk, kk + 1, 1 - p);
}

/** The result of an exact McNemar test on one paired 0/1 comparison. */
export interface McNemarResult {
  /** Discordant pairs counted 1 in arm A and 0 in arm B. */
  readonly aOnly: number;
  /** Discordant pairs counted 0 in arm A and 1 in arm B. */
  readonly bOnly: number;
  /** Exact two-sided p: min(1, 2 · P(X ≤ min(b, c))) with X ~ Binomial(b + c, 1/2); 1 when there is no discordant pair. */
  readonly p: number;
}

/** Exact two-sided McNemar test from the two discordant counts. */
export function mcnemarExact(aOnly: number, bOnly: number): McNemarResult {
  const n = aOnly + bOnly;
  const p = n === 0 ? 1 : Math.min(1, 2 * binomialCdf(Math.min(aOnly, bOnly), n, 0.5));
  return { aOnly, bOnly, p };
}

/** McNemar on two aligned 0/1 vectors (the same items under arms A and B). */
export function mcnemarPaired(a: readonly boolean[], b: readonly boolean[]): McNemarResult {
  if (a.length !== b.length) throw new RangeError("McNemar needs the same items in both arms");
  let aOnly = 0;
  let bOnly = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && !b[i]) aOnly++;
    else if (!a[i] && b[i]) bOnly++;
  }
  return mcnemarExact(aOnly, bOnly);
}

/** Ranks 1…n with ties given their average rank (scipy.stats.rankdata 'average'). */
export function averageRanks(values: readonly number[]): number[] {
  const order = values.map((v, i) => [v, i] as const).sort((x, y) => x[0] - y[0] || x[1] - y[1]);
  const ranks = new Array<number>(values.length);
  let i = 0;
  while (i < order.length) {
    let j = i;
    while (j + 1 < order.length && order[j + 1][0] === order[i][0]) j++;
    const rank = (i + j) / 2 + 1;
    for (let t = i; t <= j; t++) ranks[order[t][1]] = rank;
    i = j + 1;
  }
  return ranks;
}

function pearson(x: readonly number[], y: readonly number[]): number {
  const n = x.length;
  let mx = 0;
  let my = 0;
  for (let i = 0; i < n; i++) {
    mx += x[i];
    my += y[i];
  }
  mx /= n;
  my /= n;
  let sxy = 0;
  let sxx = 0;
  let syy = 0;
  for (let i = 0; i < n; i++) {
    const dx = x[i] - mx;
    const dy = y[i] - my;
    sxy += dx * dy;
    sxx += dx * dx;
    syy += dy * dy;
  }
  const r = sxy / Math.sqrt(sxx * syy);
  return Math.max(-1, Math.min(1, r));
}

/** Spearman's rank correlation and its two-sided p-value. */
export interface SpearmanResult {
  readonly rho: number;
  /** scipy.stats.spearmanr's p: Student t with n − 2 degrees of freedom. */
  readonly p: number;
  readonly n: number;
}

/**
 * Spearman's rho (Pearson correlation of average ranks) and scipy's p-value
 * t = rho·sqrt((n−2)/((1+rho)(1−rho))), p = 2·P(T > |t|). NaN when n < 3 or a side is constant.
 */
export function spearman(x: readonly number[], y: readonly number[]): SpearmanResult {
  if (x.length !== y.length) throw new RangeError("Spearman needs paired values");
  const n = x.length;
  if (n < 3) return { rho: Number.NaN, p: Number.NaN, n };
  const rho = pearson(averageRanks(x), averageRanks(y));
  if (Number.isNaN(rho)) return { rho, p: Number.NaN, n };
  const dof = n - 2;
  const denom = (rho + 1) * (1 - rho);
  if (denom <= 0) return { rho, p: 0, n };
  const t = rho * Math.sqrt(dof / denom);
  // Two-sided Student-t tail: 2·sf(|t|) = I_{dof/(dof+t²)}(dof/2, 1/2).
  const p = regularizedBeta(dof / 2, 0.5, dof / (dof + t * t));
  return { rho, p, n };
}
