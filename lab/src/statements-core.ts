// A statement of a report and its verdict against the lab's truth.

export type Verdict = 'true' | 'false' | 'unknown';

/** The classes precision is given for. */
export const CLASSES = ['cause', 'went-down', 'impact', 'process', 'advice', 'consumer', 'replay-setting', 'replay-fault', 'replay-milestone', 'replay-impact'] as const;
export type StatementClass = (typeof CLASSES)[number];

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

