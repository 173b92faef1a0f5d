package com.example.lab;

import java.io.FileInputStream;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/** What the lab's applications share at start: their settings file, and their exit code. */
final class LabMain {
    private LabMain() {}

    /** A run that may throw. */
    interface Run {
        void run() throws Exception;
    }

    /** The settings file (java.util.Properties), refused when one of `required` is missing. */
    static Properties settings(String file, String... required) throws Exception {
        Properties conf = new Properties();
        try (InputStream in = new FileInputStream(file)) {
            conf.load(in);
        }
        // Spring Boot's file layout prints the process id; its LoggingSystem sets PID before logback starts.
        System.setProperty("PID", String.valueOf(ProcessHandle.current().pid()));
        List<String> missing = new ArrayList<>();
        for (String k : required) {
            if (conf.getProperty(k) == null) missing.add(k);
        }
        if (!missing.isEmpty()) throw new IllegalArgumentException("missing settings: " + missing);
        return conf;
    }

    /** Runs the application: exit 0 when it returns, 1 (with the stack) when it throws. */
    static void exitAfter(Run app) {
        try {
            app.run();
        } catch (Throwable e) {
            e.printStackTrace();
            System.exit(1);
        }
        System.exit(0);
    }
}
