// Logback configurations for 4.x NameServers, brokers and the admin tool. The 4.x Maven jars do not
// carry them: the binary release installs conf/logback_namesrv.xml, conf/logback_broker.xml and
// conf/logback_tools.xml, which NamesrvStartup, BrokerStartup and MQAdminStartup load from
// ${rocketmq.home.dir}/conf. These are ours, written from one table to match each 4.x release's
// appenders, file names, patterns, rolling policies and async wrapping (distribution/conf at the tags
// rocketmq-all-4.6.0 to 4.9.7: the same appenders throughout; the broker's folder and the scan flag
// differ by release, below). 5.x servers carry their own rmq.*.logback.xml in their jars.
import { compareVersions } from './scenario.js';


interface FileAppender {
  /** Appender name as in the release. */
  name: string;
  /** File name under ${user.home}/logs/rocketmqlogs/ (4.9.3+ broker files under ${brokerLogDir}/). */
  file: string;
  maxIndex: number;
  maxFileSize: string;
  pattern: string;
  /** Wrapped in logback's AsyncAppender, as the release does. */
  async: boolean;
  /** The AsyncAppender's discardingThreshold, where the release sets one. */
  discardingThreshold?: number;
  /** Loggers routed to it; the root logger is `root`. */
  loggers: string[];
}

const FULL = '%d{yyy-MM-dd HH:mm:ss,GMT+8} %p %t - %m%n';
const NOTHREAD = '%d{yyy-MM-dd HH:mm:ss,GMT+8} %p - %m%n';
const BARE = '%d{yyy-MM-dd HH:mm:ss,GMT+8} - %m%n';

const BROKER: FileAppender[] = [
  { name: 'DefaultAppender', file: 'broker_default', maxIndex: 10, maxFileSize: '100MB', pattern: FULL, async: false, loggers: ['root'] },
  { name: 'RocketmqBrokerAppender', file: 'broker', maxIndex: 20, maxFileSize: '128MB', pattern: FULL, async: true, loggers: ['RocketmqBroker', 'RocketmqCommon'] },
  { name: 'RocketmqProtectionAppender', file: 'protection', maxIndex: 10, maxFileSize: '100MB', pattern: BARE, async: true, loggers: ['RocketmqProtection'] },
  { name: 'RocketmqWaterMarkAppender', file: 'watermark', maxIndex: 10, maxFileSize: '100MB', pattern: BARE, async: true, loggers: ['RocketmqWaterMark'] },
  { name: 'RocketmqStoreAppender', file: 'store', maxIndex: 10, maxFileSize: '128MB', pattern: FULL, async: true, loggers: ['RocketmqStore'] },
  { name: 'RocketmqRemotingAppender', file: 'remoting', maxIndex: 10, maxFileSize: '100MB', pattern: FULL, async: true, loggers: ['RocketmqRemoting'] },
  { name: 'RocketmqStoreErrorAppender', file: 'storeerror', maxIndex: 10, maxFileSize: '100MB', pattern: FULL, async: true, loggers: ['RocketmqStoreError'] },
  { name: 'RocketmqTransactionAppender', file: 'transaction', maxIndex: 10, maxFileSize: '100MB', pattern: FULL, async: true, loggers: ['RocketmqTransaction'] },
  { name: 'RocketmqRebalanceLockAppender', file: 'lock', maxIndex: 5, maxFileSize: '100MB', pattern: FULL, async: true, loggers: ['RocketmqRebalanceLock'] },
  { name: 'RocketmqFilterAppender', file: 'filter', maxIndex: 10, maxFileSize: '100MB', pattern: FULL, async: true, loggers: ['RocketmqFilter'] },
  { name: 'RocketmqStatsAppender', file: 'stats', maxIndex: 5, maxFileSize: '100MB', pattern: NOTHREAD, async: false, loggers: ['RocketmqStats'] },
];

const NAMESRV: FileAppender[] = [
  { name: 'DefaultAppender', file: 'namesrv_default', maxIndex: 5, maxFileSize: '100MB', pattern: FULL, async: false, loggers: ['root'] },
  {
    name: 'RocketmqNamesrvAppender',
    file: 'namesrv',
    maxIndex: 5,
    maxFileSize: '100MB',
    pattern: FULL,
    async: true,
    discardingThreshold: 0,
    loggers: ['RocketmqNamesrv', 'RocketmqCommon', 'RocketmqRemoting'],
  },
];

// The admin tool's own log; the lab keeps it out of the recordings (it runs on no recorded host).
const TOOLS: FileAppender[] = [
  { name: 'RocketmqToolsAppender', file: 'tools', maxIndex: 5, maxFileSize: '100MB', pattern: FULL, async: false, loggers: ['root', 'RocketmqTools', 'RocketmqClient', 'RocketmqCommon', 'RocketmqRemoting'] },
];

function appenderXml(a: FileAppender, dir: string): string {
  const inner = a.async ? `${a.name}_inner` : a.name;
  const otherdays = `otherdays/${dir}`;
  const lines = [
    `  <appender name="${inner}" class="ch.qos.logback.core.rolling.RollingFileAppender">`,
    `    <file>\${user.home}/logs/rocketmqlogs/${dir}${a.file}.log</file>`,
    '    <append>true</append>',
    '    <rollingPolicy class="ch.qos.logback.core.rolling.FixedWindowRollingPolicy">',
    `      <fileNamePattern>\${user.home}/logs/rocketmqlogs/${otherdays}${a.file}.%i.log.gz</fileNamePattern>`,
    '      <minIndex>1</minIndex>',
    `      <maxIndex>${a.maxIndex}</maxIndex>`,
    '    </rollingPolicy>',
    '    <triggeringPolicy class="ch.qos.logback.core.rolling.SizeBasedTriggeringPolicy">',
    `      <maxFileSize>${a.maxFileSize}</maxFileSize>`,
    '    </triggeringPolicy>',
    '    <encoder>',
    `      <pattern>${a.pattern}</pattern>`,
    '      <charset class="java.nio.charset.Charset">UTF-8</charset>',
    '    </encoder>',
    '  </appender>',
  ];
  if (a.async) {
    lines.push(`  <appender name="${a.name}" class="ch.qos.logback.classic.AsyncAppender">`);
    lines.push(`    <appender-ref ref="${inner}"/>`);
    if (a.discardingThreshold !== undefined) lines.push(`    <discardingThreshold>${a.discardingThreshold}</discardingThreshold>`);
    lines.push('  </appender>');
  }
  return lines.join('\n');
}

function configXml(appenders: FileAppender[], dir: string, version: string): string {
  const body = appenders.map((a) => appenderXml(a, dir));
  for (const a of appenders) {
    for (const logger of a.loggers.filter((l) => l !== 'root')) {
      body.push(`  <logger name="${logger}" additivity="false">\n    <level value="INFO"/>\n    <appender-ref ref="${a.name}"/>\n  </logger>`);
    }
  }
  const root = appenders.find((a) => a.loggers.includes('root'));
  if (root) body.push(`  <root>\n    <level value="INFO"/>\n    <appender-ref ref="${root.name}"/>\n  </root>`);
  // 4.9.5 made logback re-read the file every 30 s (distribution/conf at rocketmq-all-4.9.5).
  const open = compareVersions(version, '4.9.5') >= 0 ? '<configuration scan="true" scanPeriod="30 seconds">' : '<configuration>';
  return `<?xml version="1.0" encoding="UTF-8"?>\n<!-- Written by rmq-diag's lab to match the RocketMQ ${version} release's configuration. -->\n${open}\n${body.join('\n')}\n</configuration>\n`;
}

/**
 * The folder under logs/rocketmqlogs/ (and otherdays/) that a 4.x broker release writes into: 4.9.3
 * added isolateLogEnable and put `${brokerLogDir}/` into every broker path, and BrokerStartup sets
 * brokerLogDir to "" unless isolateLogEnable (then brokerName_brokerId), so the files stay where they
 * were. Earlier releases neither write nor set it (a `${brokerLogDir}` there would resolve to
 * brokerLogDir_IS_UNDEFINED). Read from distribution/conf/logback_broker.xml at rocketmq-all-4.9.2
 * and 4.9.3.
 */
export function brokerLogDirPart(version: string): string {
  return compareVersions(version, '4.9.3') >= 0 ? '${brokerLogDir}/' : '';
}

/**
 * conf/ files for ${rocketmq.home.dir} of 4.x servers, each as the release of that server writes it
 * (the NameServer's file from the NameServer's version, the broker's from the broker's): name -> XML.
 */
export function serverLogbackConfigs(versions: { namesrv: string; broker: string }): Record<string, string> {
  return {
    'logback_namesrv.xml': configXml(NAMESRV, '', versions.namesrv),
    'logback_broker.xml': configXml(BROKER, brokerLogDirPart(versions.broker), versions.broker),
    'logback_tools.xml': configXml(TOOLS, '', versions.broker),
  };
}

/** The log files (without .log) each 4.x server writes, for tests and the recording's checks. */
export const SERVER_LOG_FILES = {
  namesrv: NAMESRV.map((a) => a.file),
  broker: BROKER.map((a) => a.file),
};
