/*
 * The lab's consumer application: a service that consumes a topic through a released RocketMQ client
 * (DefaultMQPushConsumer, concurrently or orderly, or DefaultLitePullConsumer from 4.6.0) and logs its
 * own failures the way a Spring Boot service does (app.log, with stack traces). Written against the
 * consumer API that 4.x and 5.x remoting clients share, so the same source is compiled against every
 * client version the lab runs (the lite pull consumer is in LabLitePull, compiled for 4.6.0+ only).
 *
 * It reads one properties file (the lab writes it from the scenario):
 *   namesrvAddr, group, topic, subscription   the client's settings (subscription: a tags expression)
 *   mode                                      concurrently, orderly or litePull
 *   messageModel, consumeThreadMin, consumeThreadMax, pullBatchSize, pullThresholdForQueue,
 *   maxReconsumeTimes, consumeFromWhere       optional client settings, in RocketMQ's own names
 *   processMs, laterShare, throwShare         the listener: time spent per message, the share of
 *                                             messages answered RECONSUME_LATER (SUSPEND_CURRENT_QUEUE_A_MOMENT
 *                                             when orderly), the share that throw
 *   consumedFile                              where every message's outcome is appended (ground truth)
 *   queuesFile                                where the instance's assigned queues are written when they change
 *   appLogger                                 the application logger's name
 *
 * Standard input steers it while it runs: `listener PROCESS_MS LATER_SHARE THROW_SHARE` changes the
 * listener, `block SECONDS` makes every call entering the listener wait until that many seconds from
 * now (a downstream call that hangs), `stop` (or the end of input) shuts the consumer down. SIGTERM
 * shuts it down too, as a Spring context's destroy would: the consumer persists its offsets and
 * unregisters (DefaultMQPushConsumerImpl.shutdown).
 */
package com.example.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.reflect.Field;
import java.util.Collection;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import org.apache.rocketmq.client.consumer.DefaultMQPushConsumer;
import org.apache.rocketmq.client.consumer.listener.ConsumeConcurrentlyStatus;
import org.apache.rocketmq.client.consumer.listener.ConsumeOrderlyStatus;
import org.apache.rocketmq.client.consumer.listener.MessageListenerConcurrently;
import org.apache.rocketmq.client.consumer.listener.MessageListenerOrderly;
import org.apache.rocketmq.common.message.MessageExt;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import com.example.lab.LabListener.Outcome;

public final class LabConsumer {
    final Properties conf;
    final Logger log;
    final String group;
    final String topic;
    final String mode;
    private final PrintWriter consumed;
    private final PrintWriter queuesOut;
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "lab-clock");
        t.setDaemon(true);
        return t;
    });
    private final LabListener listener;
    private String lastQueues = null;
    private Runnable shutdown;
    private boolean down;

    LabConsumer(Properties conf) throws IOException {
        this.conf = conf;
        this.log = LoggerFactory.getLogger(conf.getProperty("appLogger", "com.example.lab.EventListener"));
        this.group = conf.getProperty("group");
        this.topic = conf.getProperty("topic");
        this.mode = conf.getProperty("mode", "concurrently");
        this.listener = new LabListener(conf);
        this.consumed = LabListener.appender(conf.getProperty("consumedFile"));
        this.queuesOut = LabListener.appender(conf.getProperty("queuesFile"));
    }

    /** The scenario's listener on one message: OK, a later retry, or its exception thrown. */
    Outcome handle(MessageExt m) {
        Outcome o = listener.next();
        if (o == Outcome.EXCEPTION) throw new LabListener.HandlerException(m.getKeys());
        return o;
    }

    /** One row per message handed to the listener: when, which message, where from, and what came of it. */
    synchronized void record(MessageExt m, MessageQueue mq, String result) {
        String queue = brokerName(m, mq) + ":" + m.getQueueId();
        consumed.println(System.currentTimeMillis() + "\t" + m.getMsgId() + "\t" + m.getTopic() + "\t" + queue + "\t"
            + m.getQueueOffset() + "\t" + m.getReconsumeTimes() + "\t" + result + "\t" + (m.getKeys() == null ? "" : m.getKeys()));
    }

    /**
     * The broker a message came from: the listener context's queue (push), or MessageExt.getBrokerName,
     * which clients before 4.9 lack (then the address of the broker that stored it).
     */
    static String brokerName(MessageExt m, MessageQueue mq) {
        if (mq != null) return mq.getBrokerName();
        try {
            Object b = MessageExt.class.getMethod("getBrokerName").invoke(m);
            if (b != null) return String.valueOf(b);
        } catch (ReflectiveOperationException e) {
            // an older client
        }
        return String.valueOf(m.getStoreHost()).replaceFirst("^/", "");
    }

    /** The application's own log line for a failed message, as a Spring Boot service writes it. */
    void failed(MessageExt m, Throwable e) {
        log.error("Failed to handle message, topic={}, msgId={}, keys={}, reconsumeTimes={}", m.getTopic(), m.getMsgId(), m.getKeys(), m.getReconsumeTimes(), e);
    }

    /** Runs the listener on one message and records its outcome ("ok", "later", "exception"). */
    Outcome consumeOne(MessageExt m, MessageQueue mq) {
        try {
            Outcome o = handle(m);
            if (o == Outcome.LATER) {
                log.warn("Message deferred, topic={}, msgId={}, keys={}, reconsumeTimes={}", m.getTopic(), m.getMsgId(), m.getKeys(), m.getReconsumeTimes());
            }
            record(m, mq, o == Outcome.OK ? "ok" : "orderly".equals(mode) ? "suspend" : "later");
            return o;
        } catch (RuntimeException e) {
            failed(m, e);
            record(m, mq, "exception");
            throw e;
        }
    }

    private void startPush() throws Exception {
        DefaultMQPushConsumer c = new DefaultMQPushConsumer(group);
        c.setNamesrvAddr(conf.getProperty("namesrvAddr"));
        c.subscribe(topic, conf.getProperty("subscription", "*"));
        String v;
        if ((v = conf.getProperty("messageModel")) != null) setEnum(c, "setMessageModel", v);
        if ((v = conf.getProperty("consumeThreadMin")) != null) c.setConsumeThreadMin(Integer.parseInt(v));
        if ((v = conf.getProperty("consumeThreadMax")) != null) c.setConsumeThreadMax(Integer.parseInt(v));
        if ((v = conf.getProperty("pullBatchSize")) != null) c.setPullBatchSize(Integer.parseInt(v));
        if ((v = conf.getProperty("pullThresholdForQueue")) != null) c.setPullThresholdForQueue(Integer.parseInt(v));
        if ((v = conf.getProperty("maxReconsumeTimes")) != null) c.setMaxReconsumeTimes(Integer.parseInt(v));
        if ((v = conf.getProperty("consumeFromWhere")) != null) setEnum(c, "setConsumeFromWhere", v);
        if ((v = conf.getProperty("pollNameServerInterval")) != null) c.setPollNameServerInterval(Integer.parseInt(v));
        if ((v = conf.getProperty("heartbeatBrokerInterval")) != null) c.setHeartbeatBrokerInterval(Integer.parseInt(v));
        if ("orderly".equals(mode)) {
            // An exception thrown by an orderly listener is caught by ConsumeMessageOrderlyService and
            // taken as SUSPEND_CURRENT_QUEUE_A_MOMENT; it is rethrown here for the client to log.
            c.registerMessageListener((MessageListenerOrderly) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    if (consumeOne(m, ctx.getMessageQueue()) == Outcome.LATER) return ConsumeOrderlyStatus.SUSPEND_CURRENT_QUEUE_A_MOMENT;
                }
                return ConsumeOrderlyStatus.SUCCESS;
            });
        } else {
            c.registerMessageListener((MessageListenerConcurrently) (msgs, ctx) -> {
                for (MessageExt m : msgs) {
                    if (consumeOne(m, ctx.getMessageQueue()) == Outcome.LATER) return ConsumeConcurrentlyStatus.RECONSUME_LATER;
                }
                return ConsumeConcurrentlyStatus.CONSUME_SUCCESS;
            });
        }
        c.start();
        log.info("Listener started: group={}, topic={}, subscription={}, mode={}, namesrvAddr={}", group, topic, conf.getProperty("subscription", "*"), mode, c.getNamesrvAddr());
        Object rebalance = c.getDefaultMQPushConsumerImpl().getRebalanceImpl();
        clock.scheduleAtFixedRate(() -> writeQueues(rebalance), 1, 1, TimeUnit.SECONDS);
        shutdown = c::shutdown;
    }

    /** The queues the instance's rebalance holds (RebalanceImpl.processQueueTable), written when they change. */
    void writeQueues(Object rebalanceImpl) {
        try {
            Map<?, ?> table = (Map<?, ?>) rebalanceImpl.getClass().getMethod("getProcessQueueTable").invoke(rebalanceImpl);
            TreeSet<String> names = new TreeSet<>();
            for (Object k : table.keySet()) {
                MessageQueue mq = (MessageQueue) k;
                names.add(mq.getTopic() + "@" + mq.getBrokerName() + ":" + mq.getQueueId());
            }
            String line = String.join(",", names);
            if (!line.equals(lastQueues)) {
                lastQueues = line;
                queuesOut.println(System.currentTimeMillis() + "\t" + line);
            }
        } catch (ReflectiveOperationException e) {
            log.warn("Cannot read the assigned queues: {}", e.toString());
        }
    }

    /**
     * Calls an enum setter by the constant's name: MessageModel moved from common.protocol.heartbeat
     * (4.x) to remoting.protocol.heartbeat (5.x), so the one source names neither.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    static void setEnum(Object target, String setter, String value) throws ReflectiveOperationException {
        for (java.lang.reflect.Method m : target.getClass().getMethods()) {
            if (m.getName().equals(setter) && m.getParameterCount() == 1 && m.getParameterTypes()[0].isEnum()) {
                m.invoke(target, Enum.valueOf((Class) m.getParameterTypes()[0], value));
                return;
            }
        }
        throw new NoSuchMethodException(setter);
    }

    /** A field of an object or its superclasses, by name (the lite pull consumer keeps its rebalance private). */
    static Object field(Object o, String name) throws ReflectiveOperationException {
        for (Class<?> k = o.getClass(); k != null; k = k.getSuperclass()) {
            try {
                Field f = k.getDeclaredField(name);
                f.setAccessible(true);
                return f.get(o);
            } catch (NoSuchFieldException e) {
                // up
            }
        }
        throw new NoSuchFieldException(name);
    }

    void startQueueWatch(Object rebalanceImpl) {
        clock.scheduleAtFixedRate(() -> writeQueues(rebalanceImpl), 1, 1, TimeUnit.SECONDS);
    }

    private void run() throws Exception {
        if ("litePull".equals(mode)) {
            shutdown = (Runnable) Class.forName("com.example.lab.LabLitePull").getConstructor(LabConsumer.class).newInstance(this);
        } else {
            startPush();
        }
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "lab-shutdown"));
        listener.control();
        stop();
    }

    private synchronized void stop() {
        if (down) return;
        down = true;
        log.info("Listener stopping: group={}", group);
        listener.unblock();
        clock.shutdownNow();
        if (shutdown != null) shutdown.run();
        consumed.flush();
        queuesOut.flush();
    }

    public static void main(String[] args) throws Exception {
        Properties conf = LabMain.settings(args[0], "namesrvAddr", "group", "topic", "consumedFile", "queuesFile");
        LabMain.exitAfter(() -> new LabConsumer(conf).run());
    }

    /** For LabLitePull: the messages of one poll, handled one by one. */
    void consumeAll(Collection<MessageExt> msgs) {
        for (MessageExt m : msgs) {
            try {
                consumeOne(m, null);
            } catch (RuntimeException e) {
                // The lite pull consumer has no retry topic: the application logged it and moves on.
            }
        }
    }
}
