// What kind of log a source is: ingest tells it from the file name (and the parser confirms it from
// the content). Here, below the parser, so that ingest imports nothing from the layers above it;

/** What kind of log a source is. */
export type SourceKind =
  | 'client' // rocketmq_client.log
  | 'broker' // broker.log / broker_default.log
  | 'namesrv' // namesrv.log / namesrv_default.log
  | 'remoting' // broker remoting.log
  | 'store' // store.log / storeerror.log
  | 'watermark' // watermark.log
  | 'stats' // stats.log
  | 'app' // an application log that carries RocketMQ client lines
  | 'unknown';

export const SOURCE_KINDS: readonly SourceKind[] = [
  'client',
  'broker',
  'namesrv',
  'remoting',
  'store',
  'watermark',
  'stats',
  'app',
  'unknown',
];

/** The logs a RocketMQ server process writes (NameServer and broker): their silences are the host's. */
export const SERVER_KINDS: ReadonlySet<SourceKind> = new Set<SourceKind>(['namesrv', 'broker', 'remoting', 'store', 'watermark', 'stats']);
