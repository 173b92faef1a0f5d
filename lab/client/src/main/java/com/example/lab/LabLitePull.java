/*
 * The lab consumer's lite pull mode (DefaultLitePullConsumer, 4.6.0+; compiled only against those
 * clients): one thread polls and hands each message to LabConsumer's listener. A lite pull consumer
 * has no retry topic: a message the listener fails is logged by the application and not consumed
 * again (the offset is committed by autoCommit).
 */
package com.example.lab;

import java.util.List;

import org.apache.rocketmq.client.consumer.DefaultLitePullConsumer;
import org.apache.rocketmq.common.message.MessageExt;

public final class LabLitePull implements Runnable {
    private final DefaultLitePullConsumer consumer;
    private final Thread poller;
    private volatile boolean running = true;

    public LabLitePull(LabConsumer app) throws Exception {
        consumer = new DefaultLitePullConsumer(app.group);
        consumer.setNamesrvAddr(app.conf.getProperty("namesrvAddr"));
        consumer.subscribe(app.topic, app.conf.getProperty("subscription", "*"));
        String v;
        if ((v = app.conf.getProperty("messageModel")) != null) LabConsumer.setEnum(consumer, "setMessageModel", v);
        if ((v = app.conf.getProperty("pullBatchSize")) != null) consumer.setPullBatchSize(Integer.parseInt(v));
        if ((v = app.conf.getProperty("pullThresholdForQueue")) != null) consumer.setPullThresholdForQueue(Integer.parseInt(v));
        if ((v = app.conf.getProperty("consumeFromWhere")) != null) LabConsumer.setEnum(consumer, "setConsumeFromWhere", v);
        if ((v = app.conf.getProperty("pollNameServerInterval")) != null) consumer.setPollNameServerInterval(Integer.parseInt(v));
        if ((v = app.conf.getProperty("heartbeatBrokerInterval")) != null) consumer.setHeartbeatBrokerInterval(Integer.parseInt(v));
        consumer.start();
        app.log.info("Listener started: group={}, topic={}, subscription={}, mode=litePull, namesrvAddr={}", app.group, app.topic,
            app.conf.getProperty("subscription", "*"), consumer.getNamesrvAddr());
        Object impl = LabConsumer.field(consumer, "defaultLitePullConsumerImpl");
        app.startQueueWatch(LabConsumer.field(impl, "rebalanceImpl"));
        poller = new Thread(() -> {
            while (running) {
                List<MessageExt> msgs = consumer.poll(1000);
                app.consumeAll(msgs);
            }
        }, "lab-poller");
        poller.setDaemon(true);
        poller.start();
    }

    @Override
    public void run() {
        running = false;
        try {
            poller.join(5000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        consumer.shutdown();
    }
}
