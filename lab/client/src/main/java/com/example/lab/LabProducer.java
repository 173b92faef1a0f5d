/*
 * The lab's producer application: a service that publishes events through a released RocketMQ client
 * at a scheduled rate, and logs its own failures the way a Spring Boot service does (app.log, with
 * stack traces). Written against the DefaultMQProducer API that 4.x and 5.x clients share, so the
 * same source is compiled against every client version the lab runs.
 *
 * It reads one properties file (the lab writes it from the scenario):
 *   namesrvAddr, group, topic                 the client's settings, in RocketMQ's own names
 *   sendMsgTimeout, retryTimesWhenSendFailed, sendLatencyFaultEnable, pollNameServerInterval,
 *   heartbeatBrokerInterval                   optional client settings
 *   selectorQueue                             optional: send through a MessageQueueSelector that
 *                                             always picks this index of the topic's queue list
 *   rate, threads                             sends per second, and the sending threads
 *   async                                     true: send with a SendCallback (rate-driven, threads unused)
 *   bodySize                                  bytes per message body
 *   tags                                      optional: the messages' tags, taken in turn (default "lab")
 *   sendsFile                                 where every send's outcome is appended (ground truth)
 *   appLogger                                 the application logger's name
 *   appLogStacks                              false: log a failure on one line (`e.toString()`), as
 *                                             batch jobs with many failures often do
 *
 * Standard input steers it while it runs: `load RATE THREADS [async]` changes the load (an overload;
 * `async` sends with a SendCallback, as batch jobs do, so many requests are in flight at once), `stop`
 * (or the end of input) stops sending and shuts the producer down.
 */
package com.example.lab;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Properties;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.rocketmq.client.producer.DefaultMQProducer;
import org.apache.rocketmq.client.producer.MessageQueueSelector;
import org.apache.rocketmq.client.producer.SendCallback;
import org.apache.rocketmq.client.producer.SendResult;
import org.apache.rocketmq.common.message.Message;
import org.apache.rocketmq.common.message.MessageQueue;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

public final class LabProducer {
    /** Picks the queue at the given index of the topic's queue list (ordered messages of one key). */
    private static final MessageQueueSelector SELECT_BY_INDEX = (mqs, m, arg) -> mqs.get((Integer) arg % mqs.size());

    private final Properties conf;
    private final Logger log;
    private final DefaultMQProducer producer;
    private final String topic;
    private final byte[] body;
    private final Integer selectorQueue;
    private final PrintWriter sends;
    private final AtomicLong sequence = new AtomicLong();
    private final ScheduledExecutorService clock = Executors.newSingleThreadScheduledExecutor(r -> named(r, "lab-clock"));
    private final ThreadPoolExecutor workers;
    private ScheduledFuture<?> ticker;
    private volatile boolean async;
    private final boolean appLogStacks;
    private final String[] tags;

    private LabProducer(Properties conf) throws IOException {
        this.conf = conf;
        this.log = LoggerFactory.getLogger(conf.getProperty("appLogger", "com.example.lab.EventPublisher"));
        this.topic = conf.getProperty("topic");
        this.body = new byte[Integer.parseInt(conf.getProperty("bodySize", "256"))];
        Arrays.fill(body, (byte) 'x');
        String selector = conf.getProperty("selectorQueue");
        this.selectorQueue = selector == null || selector.isEmpty() ? null : Integer.valueOf(selector);
        this.appLogStacks = !"false".equals(conf.getProperty("appLogStacks"));
        this.tags = conf.getProperty("tags", "lab").split(",");
        this.sends = new PrintWriter(new OutputStreamWriter(
            new FileOutputStream(conf.getProperty("sendsFile"), true), StandardCharsets.UTF_8), true);
        this.workers = new ThreadPoolExecutor(1, 1, 60, TimeUnit.SECONDS, new SynchronousQueue<>(),
            r -> named(r, "publisher-" + sequence.incrementAndGet()));
        this.producer = new DefaultMQProducer(conf.getProperty("group"));
        producer.setNamesrvAddr(conf.getProperty("namesrvAddr"));
        String v;
        if ((v = conf.getProperty("sendMsgTimeout")) != null) producer.setSendMsgTimeout(Integer.parseInt(v));
        if ((v = conf.getProperty("retryTimesWhenSendFailed")) != null) producer.setRetryTimesWhenSendFailed(Integer.parseInt(v));
        if ((v = conf.getProperty("sendLatencyFaultEnable")) != null) producer.setSendLatencyFaultEnable(Boolean.parseBoolean(v));
        if ((v = conf.getProperty("pollNameServerInterval")) != null) producer.setPollNameServerInterval(Integer.parseInt(v));
        if ((v = conf.getProperty("heartbeatBrokerInterval")) != null) producer.setHeartbeatBrokerInterval(Integer.parseInt(v));
    }

    private static Thread named(Runnable r, String name) {
        Thread t = new Thread(r, name);
        t.setDaemon(true);
        return t;
    }

    private void run() throws Exception {
        producer.start();
        log.info("Publisher started: group={}, topic={}, namesrvAddr={}", producer.getProducerGroup(), topic, producer.getNamesrvAddr());
        async = Boolean.parseBoolean(conf.getProperty("async", "false"));
        setLoad(Double.parseDouble(conf.getProperty("rate", "1")), Integer.parseInt(conf.getProperty("threads", "4")));
        BufferedReader control = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = control.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("stop")) break;
            if (w[0].equals("load") && w.length >= 3) {
                double rate = Double.parseDouble(w[1]);
                int threads = Integer.parseInt(w[2]);
                boolean async = w.length > 3 && w[3].equals("async");
                clock.execute(() -> {
                    this.async = async;
                    setLoad(rate, threads);
                });
            }
        }
        clock.shutdownNow();
        workers.shutdown();
        workers.awaitTermination(30, TimeUnit.SECONDS);
        log.info("Publisher stopping");
        producer.shutdown();
        sends.close();
    }

    private void setLoad(double rate, int threads) {
        if (ticker != null) ticker.cancel(false);
        if (threads > workers.getMaximumPoolSize()) {
            workers.setMaximumPoolSize(threads);
            workers.setCorePoolSize(threads);
        } else {
            workers.setCorePoolSize(threads);
            workers.setMaximumPoolSize(threads);
        }
        if (rate <= 0) return;
        long periodMicros = Math.max(1, Math.round(1_000_000 / rate));
        ticker = clock.scheduleAtFixedRate(this::tick, 0, periodMicros, TimeUnit.MICROSECONDS);
    }

    // A tick that finds every publisher thread busy is not sent: the service sheds it, as a web server
    // with a full worker pool would, and the sends file says so.
    private void tick() {
        long id = sequence.incrementAndGet();
        if (async) {
            sendAsync(id);
            return;
        }
        try {
            workers.execute(() -> send(id));
        } catch (RejectedExecutionException e) {
            record(System.currentTimeMillis(), System.currentTimeMillis(), "shed", "", "");
        }
    }

    private void send(long id) {
        String key = "evt-" + id;
        Message msg = new Message(topic, tags[(int) (id % tags.length)], key, body);
        long start = System.currentTimeMillis();
        try {
            SendResult r;
            if (selectorQueue == null) {
                r = producer.send(msg);
            } else {
                r = producer.send(msg, SELECT_BY_INDEX, selectorQueue);
            }
            MessageQueue mq = r.getMessageQueue();
            record(start, System.currentTimeMillis(), "ok", mq.getBrokerName() + ":" + mq.getQueueId(), r.getSendStatus() + "\t" + r.getMsgId() + "\t" + msg.getTags());
        } catch (Exception e) {
            long end = System.currentTimeMillis();
            failed("Failed to publish event", key, e);
            record(start, end, "fail", "", (e.getClass().getName() + ": " + firstLine(e.getMessage())).replace('\t', ' '));
        }
    }

    private void sendAsync(long id) {
        String key = "evt-" + id;
        Message msg = new Message(topic, tags[(int) (id % tags.length)], key, body);
        long start = System.currentTimeMillis();
        SendCallback callback = new SendCallback() {
            @Override
            public void onSuccess(SendResult r) {
                MessageQueue mq = r.getMessageQueue();
                record(start, System.currentTimeMillis(), "ok", mq.getBrokerName() + ":" + mq.getQueueId(), r.getSendStatus() + "\t" + r.getMsgId() + "\t" + msg.getTags());
            }

            @Override
            public void onException(Throwable e) {
                failed("Failed to publish event asynchronously", key, e);
                record(start, System.currentTimeMillis(), "fail", "", (e.getClass().getName() + ": " + firstLine(e.getMessage())).replace('\t', ' '));
            }
        };
        try {
            if (selectorQueue == null) {
                producer.send(msg, callback);
            } else {
                producer.send(msg, SELECT_BY_INDEX, selectorQueue, callback);
            }
        } catch (Exception e) {
            failed("Failed to publish event asynchronously", key, e);
            record(start, System.currentTimeMillis(), "fail", "", (e.getClass().getName() + ": " + firstLine(e.getMessage())).replace('\t', ' '));
        }
    }

    private void failed(String what, String key, Throwable e) {
        if (appLogStacks) {
            log.error("{}, topic={}, key={}", what, topic, key, e);
        } else {
            log.error("{}, topic={}, key={}: {}", what, topic, key, String.valueOf(e).replace('\n', ' '));
        }
    }

    private static String firstLine(String s) {
        if (s == null) return "";
        int nl = s.indexOf('\n');
        return (nl < 0 ? s : s.substring(0, nl)).trim();
    }

    /** One row per send: start, end, outcome, queue, detail (for a sent message its status, msgId and tag; or the exception). */
    private synchronized void record(long start, long end, String outcome, String queue, String detail) {
        sends.println(start + "\t" + end + "\t" + outcome + "\t" + queue + "\t" + detail);
    }

    public static void main(String[] args) throws Exception {
        Properties conf = LabMain.settings(args[0], "namesrvAddr", "group", "topic", "sendsFile");
        LabMain.exitAfter(() -> new LabProducer(conf).run());
    }
}
