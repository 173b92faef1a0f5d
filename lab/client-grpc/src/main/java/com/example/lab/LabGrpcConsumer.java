/*
 * The lab's gRPC consumer application: a service that consumes a topic through the 5.x gRPC client
 * (rocketmq-client-java's PushConsumer or SimpleConsumer, connected to a proxy) and logs its own
 * failures the way a Spring Boot service does (app.log, with stack traces), as LabConsumer does for
 * the remoting clients.
 *
 * It reads one properties file (the lab writes it from the scenario):
 *   endpoints, group, topic, subscription     the client's settings (endpoints: the proxy's gRPC address;
 *                                             subscription: a tag expression, FilterExpressionType.TAG)
 *   mode                                      grpcPush (PushConsumer, default) or grpcSimple (SimpleConsumer)
 *   consumptionThreadCount, maxCacheMessageCount   optional PushConsumerBuilder settings; a simple
 *                                             consumer runs consumptionThreadCount receiving threads
 *   receiveBatchSize, invisibleSeconds, awaitSeconds   a simple consumer's receive(maxMessageNum,
 *                                             invisibleDuration) and awaitDuration (defaults 16, 15 s
 *                                             and 30 s, rocketmq-clients' SimpleConsumerExample)
 *   processMs, laterShare, throwShare         the listener: time spent per message, the share answered
 *                                             ConsumeResult.FAILURE, the share that throw
 *   consumedFile                              where every message's outcome is appended (ground truth)
 *   queuesFile                                created empty: a gRPC consumer holds no queues (it
 *                                             receives by pop from the queues the proxy assigns)
 *   appLogger                                 the application logger's name
 *
 * A gRPC consumer has no maxReconsumeTimes of its own: the proxy sends it its group's retry policy
 * (SubscriptionGroupConfig.retryMaxTimes + 1 attempts), which the lab sets with mqadmin updateSubGroup.
 *
 * Standard input steers it as it does LabConsumer: `listener PROCESS_MS LATER_SHARE THROW_SHARE`,
 * `block SECONDS`, `stop`. SIGTERM closes the consumer (PushConsumer.close), as a Spring context's
 * destroy would.
 */
package com.example.lab;

import java.io.IOException;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

import org.apache.rocketmq.client.apis.ClientConfiguration;
import org.apache.rocketmq.client.apis.ClientServiceProvider;
import org.apache.rocketmq.client.apis.consumer.ConsumeResult;
import org.apache.rocketmq.client.apis.consumer.FilterExpression;
import org.apache.rocketmq.client.apis.consumer.FilterExpressionType;
import org.apache.rocketmq.client.apis.consumer.PushConsumer;
import org.apache.rocketmq.client.apis.consumer.PushConsumerBuilder;
import org.apache.rocketmq.client.apis.consumer.SimpleConsumer;
import org.apache.rocketmq.client.apis.message.MessageView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public final class LabGrpcConsumer {
    private final Properties conf;
    private final Logger log;
    private final String group;
    private final String topic;
    private final PrintWriter consumed;
    private final LabListener listener;
    private PushConsumer consumer;
    private SimpleConsumer simple;
    private final List<Thread> receivers = new ArrayList<>();
    private volatile boolean down;

    LabGrpcConsumer(Properties conf) throws IOException {
        this.conf = conf;
        this.log = LoggerFactory.getLogger(conf.getProperty("appLogger", "com.example.lab.EventListener"));
        this.group = conf.getProperty("group");
        this.topic = conf.getProperty("topic");
        this.listener = new LabListener(conf);
        this.consumed = LabListener.appender(conf.getProperty("consumedFile"));
        LabListener.appender(conf.getProperty("queuesFile")).close();
    }

    /**
     * The queue a message was received from (broker:queueId) and its queue offset: MessageViewImpl's,
     * which the API's MessageView does not expose (read by reflection; "?" and -1 when absent).
     */
    static String[] where(MessageView m) {
        try {
            Object mq = m.getClass().getMethod("getMessageQueue").invoke(m);
            Object broker = mq.getClass().getMethod("getBroker").invoke(mq);
            String name = String.valueOf(broker.getClass().getMethod("getName").invoke(broker));
            Object queueId = mq.getClass().getMethod("getQueueId").invoke(mq);
            Object offset = m.getClass().getMethod("getOffset").invoke(m);
            return new String[] {name + ":" + queueId, String.valueOf(offset)};
        } catch (ReflectiveOperationException | RuntimeException e) {
            return new String[] {"?", "-1"};
        }
    }

    private static String keys(MessageView m) {
        return String.join(" ", m.getKeys());
    }

    /** One row per message handed to the listener, as LabConsumer writes it (reconsumeTimes = attempt - 1). */
    private synchronized void record(MessageView m, String result) {
        String[] w = where(m);
        consumed.println(System.currentTimeMillis() + "\t" + m.getMessageId() + "\t" + m.getTopic() + "\t" + w[0] + "\t"
            + w[1] + "\t" + (m.getDeliveryAttempt() - 1) + "\t" + result + "\t" + keys(m));
    }

    /** The listener: waits out a block, spends the processing time, then answers SUCCESS, FAILURE, or throws. */
    ConsumeResult consume(MessageView m) {
        LabListener.Outcome o = listener.next();
        int reconsumeTimes = m.getDeliveryAttempt() - 1;
        if (o == LabListener.Outcome.EXCEPTION) {
            LabListener.HandlerException e = new LabListener.HandlerException(keys(m));
            log.error("Failed to handle message, topic={}, msgId={}, keys={}, reconsumeTimes={}", m.getTopic(), m.getMessageId(), keys(m), reconsumeTimes, e);
            record(m, "exception");
            throw e;
        }
        if (o == LabListener.Outcome.LATER) {
            log.warn("Message deferred, topic={}, msgId={}, keys={}, reconsumeTimes={}", m.getTopic(), m.getMessageId(), keys(m), reconsumeTimes);
            record(m, "later");
            return ConsumeResult.FAILURE;
        }
        record(m, "ok");
        return ConsumeResult.SUCCESS;
    }

    private void start() throws Exception {
        ClientServiceProvider provider = ClientServiceProvider.loadService();
        ClientConfiguration cc = ClientConfiguration.newBuilder().setEndpoints(conf.getProperty("endpoints")).build();
        String subscription = conf.getProperty("subscription", "*");
        if ("grpcSimple".equals(conf.getProperty("mode"))) {
            startSimple(provider, cc, subscription);
            return;
        }
        PushConsumerBuilder b = provider.newPushConsumerBuilder()
            .setClientConfiguration(cc)
            .setConsumerGroup(group)
            .setSubscriptionExpressions(Collections.singletonMap(topic, new FilterExpression(subscription, FilterExpressionType.TAG)))
            .setMessageListener(this::consume);
        String v;
        if ((v = conf.getProperty("consumptionThreadCount")) != null) b.setConsumptionThreadCount(Integer.parseInt(v));
        if ((v = conf.getProperty("maxCacheMessageCount")) != null) b.setMaxCacheMessageCount(Integer.parseInt(v));
        consumer = b.build();
        log.info("Listener started: group={}, topic={}, subscription={}, mode=grpcPush, endpoints={}", group, topic, subscription, conf.getProperty("endpoints"));
    }

    /**
     * A SimpleConsumer: receiving threads that each receive a batch, handle its messages and ack the
     * ones handled; a message that failed is not acked, so it is received again once its invisible
     * duration is over (and moved to the DLQ by the proxy past its attempts), as a service using the
     * simple consumer does.
     */
    private void startSimple(ClientServiceProvider provider, ClientConfiguration cc, String subscription) throws Exception {
        int batch = Integer.parseInt(conf.getProperty("receiveBatchSize", "16"));
        Duration invisible = Duration.ofSeconds(Long.parseLong(conf.getProperty("invisibleSeconds", "15")));
        simple = provider.newSimpleConsumerBuilder()
            .setClientConfiguration(cc)
            .setConsumerGroup(group)
            .setSubscriptionExpressions(Collections.singletonMap(topic, new FilterExpression(subscription, FilterExpressionType.TAG)))
            .setAwaitDuration(Duration.ofSeconds(Long.parseLong(conf.getProperty("awaitSeconds", "30"))))
            .build();
        int threads = Integer.parseInt(conf.getProperty("consumptionThreadCount", "1"));
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> receiveLoop(batch, invisible), "lab-receive-" + i);
            t.setDaemon(true);
            receivers.add(t);
            t.start();
        }
        log.info("Listener started: group={}, topic={}, subscription={}, mode=grpcSimple, endpoints={}", group, topic, subscription, conf.getProperty("endpoints"));
    }

    private void receiveLoop(int batch, Duration invisible) {
        while (!down) {
            List<MessageView> got;
            try {
                got = simple.receive(batch, invisible);
            } catch (Exception e) {
                if (down) return;
                log.warn("Failed to receive messages, group={}, topic={}: {}", group, topic, e.toString());
                LabListener.sleep(1000);
                continue;
            }
            for (MessageView m : got) {
                ConsumeResult r;
                try {
                    r = consume(m);
                } catch (LabListener.HandlerException e) {
                    continue;
                }
                if (r != ConsumeResult.SUCCESS) continue;
                try {
                    simple.ack(m);
                } catch (Exception e) {
                    log.warn("Failed to ack message, msgId={}: {}", m.getMessageId(), e.toString());
                }
            }
        }
    }

    private void run() throws Exception {
        start();
        Runtime.getRuntime().addShutdownHook(new Thread(this::stop, "lab-shutdown"));
        listener.control();
        stop();
    }

    private synchronized void stop() {
        if (down) return;
        down = true;
        log.info("Listener stopping: group={}", group);
        listener.unblock();
        try {
            if (consumer != null) consumer.close();
            if (simple != null) simple.close();
        } catch (IOException e) {
            log.warn("Closing the consumer failed: {}", e.toString());
        }
        consumed.flush();
    }

    public static void main(String[] args) throws Exception {
        Properties conf = LabMain.settings(args[0], "endpoints", "group", "topic", "consumedFile", "queuesFile");
        LabMain.exitAfter(() -> new LabGrpcConsumer(conf).run());
    }
}
