// Messages stored more than once by one application send.
//
// Every attempt of one send carries the same message: DefaultMQProducerImpl.sendKernelImpl calls
// MessageClientIDSetter.setUniqID(msg), which sets the UNIQ_KEY property only when the message has
// none yet (4.9.4, 5.1.4), and sendDefaultImpl's retries ("sendKernelImpl exception, resend at
// once") send that same Message object again. An attempt the client gave up on (its 3 s timeout ran
// out, or its channel was closed) may still be stored: a hung broker reads the request from its socket
// when it runs again, a slow one answers after the deadline. Its retry stores the message a second
// time, on another queue, and the consumers consume both copies. A consumer's message id is that
// UNIQ_KEY (MessageClientExt.getMsgId), so the two copies are one message consumed twice.
//
// The registry is shared by a run's producers, brokers and consumer groups. Memory: a send is kept
// from its first stored copy until it ends, and after it only when one of its attempts failed (a late
// copy of it may still come); a copy's location is kept only for a message stored more than once.

/** A send's message, as the model's SEND_MESSAGE request carries it: -1 for none (not tracked). */
export type MessageKey = number;

/** Where a copy was stored: a broker's queue and the offset in it. */
export interface StoredCopy {
  readonly brokerName: string;
  readonly topic: string;
  readonly queueId: number;
  readonly offset: number;
}

const locationOf = (brokerName: string, topic: string, queueId: number, offset: number): string => `${brokerName} ${topic}:${queueId}:${offset}`;

export class MessageCopies {
  private nextKey = 0;
  /** Per send not ended yet (or ended after a failed attempt), its first stored copy. */
  private readonly firstCopy = new Map<MessageKey, StoredCopy>();
  /** The copies of messages stored more than once: location -> every copy of its message. */
  private readonly copiesAt = new Map<string, StoredCopy[]>();

  /** A new application send's message (its UNIQ_KEY). */
  newMessage(): MessageKey {
    return this.nextKey++;
  }

  /** A broker stored a copy of the message at `offset` of its queue. */
  stored(key: MessageKey, brokerName: string, topic: string, queueId: number, offset: number): void {
    if (key < 0) return;
    const copy: StoredCopy = { brokerName, topic, queueId, offset };
    const first = this.firstCopy.get(key);
    if (first === undefined) {
      this.firstCopy.set(key, copy);
      return;
    }
    const firstAt = locationOf(first.brokerName, first.topic, first.queueId, first.offset);
    let all = this.copiesAt.get(firstAt);
    if (all === undefined) this.copiesAt.set(firstAt, (all = [first]));
    all.push(copy);
    this.copiesAt.set(locationOf(brokerName, topic, queueId, offset), all);
  }

  /**
   * The send ended. Without a failed attempt its one copy (if any) is stored already and no other
   * can come; after one, a copy of the attempt given up on may still be stored.
   */
  ended(key: MessageKey, hadFailedAttempt: boolean): void {
    if (key >= 0 && !hadFailedAttempt) this.firstCopy.delete(key);
  }

  /** Every copy of the message stored at this location, when it was stored more than once (itself included). */
  copiesOf(brokerName: string, topic: string, queueId: number, offset: number): readonly StoredCopy[] | undefined {
    if (this.copiesAt.size === 0) return undefined;
    return this.copiesAt.get(locationOf(brokerName, topic, queueId, offset));
  }

  /** How many messages were stored more than once (tests). */
  get storedTwice(): number {
    return new Set(this.copiesAt.values()).size;
  }
}
