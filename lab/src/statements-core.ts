// A statement of a report and its verdict against the lab's truth.

export type Verdict = 'true' | 'false' | 'unknown';

/**
 * The classes precision is given for. `replay-assumed` holds the values replay ran with because no
 * line gave them (a release's default, a topic's rate shared equally among its producers), which its
 * report lists as such (`defaults`): whether the lab ran them is counted, but they are not claims
 * about the cluster, and the precision of all statements leaves them out (CLAIMS).
 */
export const CLASSES = ['cause', 'went-down', 'impact', 'process', 'advice', 'consumer', 'replay-setting', 'replay-fault', 'replay-milestone', 'replay-impact', 'replay-assumed'] as const;
export type StatementClass = (typeof CLASSES)[number];

/** The classes whose statements are claims: all but the values replay says it assumed. */
export const isClaim = (cls: StatementClass): boolean => cls !== 'replay-assumed';

export interface Statement {
  source: 'analyze' | 'replay';
  cls: StatementClass;
  /** Where in the report: `I1 cause 1`, `F3 broker-down-detection`, `scenario.clients[0]`. */
  where: string;
  /** What the report says, in one line. */
  claim: string;
  verdict: Verdict;
  /** The lab's evidence for true or false; for unknown, why the truth cannot decide. */
  why: string;
}

export const say = (source: Statement['source'], cls: StatementClass, where: string, claim: string) => ({
  is: (ok: boolean, whyTrue: string, whyFalse: string): Statement => ({ source, cls, where, claim, verdict: ok ? 'true' : 'false', why: ok ? whyTrue : whyFalse }),
  unknown: (why: string): Statement => ({ source, cls, where, claim, verdict: 'unknown', why }),
});

