package com.example.lab;

import java.io.BufferedReader;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The scenario's listener, shared by LabConsumer (the remoting clients) and LabGrpcConsumer (the 5.x
 * gRPC client): its behaviour (time spent per message, the shares answered "later" and thrown), a block
 * the lab can set, and the standard-input commands that change them: `listener PROCESS_MS LATER_SHARE
 * THROW_SHARE`, `block SECONDS`, `stop`. What an outcome means to the client is each consumer's own.
 */
final class LabListener {
    /** What the listener does with a message: its outcome, as the consumed file records it. */
    enum Outcome { OK, LATER, EXCEPTION }

    /** The listener's behaviour; replaced as a whole when the lab changes it. */
    static final class Behaviour {
        final long processMs;
        final double laterShare;
        final double throwShare;

        Behaviour(long processMs, double laterShare, double throwShare) {
            this.processMs = processMs;
            this.laterShare = laterShare;
            this.throwShare = throwShare;
        }
    }

    /** The application's failure: what a service's handler throws when a downstream call fails. */
    static final class HandlerException extends RuntimeException {
        HandlerException(String keys) {
            super("inventory service call failed for order " + keys);
        }
    }

    private volatile Behaviour behaviour;
    private volatile long blockedUntil;

    /** The behaviour the settings file gives: processMs (default 10), laterShare and throwShare (default 0). */
    LabListener(Properties conf) {
        this.behaviour = new Behaviour(Long.parseLong(conf.getProperty("processMs", "10")),
            Double.parseDouble(conf.getProperty("laterShare", "0")), Double.parseDouble(conf.getProperty("throwShare", "0")));
    }

    /**
     * Handles one message as the scenario's listener does: waits out a block, spends the processing
     * time, then draws the outcome (EXCEPTION: the caller throws, with the message's keys).
     */
    Outcome next() {
        long wait;
        while ((wait = blockedUntil - System.currentTimeMillis()) > 0) {
            sleep(wait);
        }
        Behaviour b = behaviour;
        if (b.processMs > 0) sleep(b.processMs);
        double r = ThreadLocalRandom.current().nextDouble();
        if (r < b.throwShare) return Outcome.EXCEPTION;
        if (r < b.throwShare + b.laterShare) return Outcome.LATER;
        return Outcome.OK;
    }

    /** Reads the lab's commands from standard input until `stop` or its end. */
    void control() throws IOException {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            String[] w = line.trim().split("\\s+");
            if (w[0].equals("stop")) return;
            if (w[0].equals("listener") && w.length >= 4) {
                behaviour = new Behaviour(Long.parseLong(w[1]), Double.parseDouble(w[2]), Double.parseDouble(w[3]));
            } else if (w[0].equals("block") && w.length >= 2) {
                blockedUntil = System.currentTimeMillis() + Math.round(Double.parseDouble(w[1]) * 1000);
            }
        }
    }

    /** Ends a block: the application is stopping. */
    void unblock() {
        blockedUntil = 0;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** A file the consumer appends to, a line at a time. */
    static PrintWriter appender(String path) throws IOException {
        return new PrintWriter(new OutputStreamWriter(new FileOutputStream(path, true), StandardCharsets.UTF_8), true);
    }
}
