#!/usr/bin/env node
// Generates the benchmark log set: a mixed, realistic set of RocketMQ server, client and
// application logs, deterministic for a given size and seed. Used by scripts/bench.mjs; it can
// also be run alone:
//
//   node scripts/bench-gen.mjs --size 200MiB [--seed 1] [--hosts 4] --out DIR
//
// Layout (one folder per host, host-1 .. host-N):
//
//   host-K/rocketmqlogs/broker.log, remoting.log, store.log, watermark.log    broker 4.9.8 (logback, GMT+8)
//   host-K/rocketmqlogs/namesrv.log                                          NameServer 4.9.8
//   host-K/rocketmqlogs/rocketmq_client.log, rocketmq_client.log.1           client 4.9.4 inner logger (CRLF)
//   host-K/rocketmqlogs/otherdays/broker.1.log.gz                            rolled broker.log (gzip)
//   host-K/order-service/logs/order-service.log                              Spring Boot 2.x application
//   host-K/payment-service/logs/rocketmqlogs/rocketmq_client.log             client 5.3.0 logback
//   host-K/payment-service/logs/rocketmqlogs/other_days/rocketmq_client-1.log.gz
//
// Message texts, layouts and thread/logger names follow the Apache RocketMQ sources (4.9.8
// servers, 4.9.4 and 5.3.0 clients). Most records are ordinary noise (stats, heartbeats, offsets,
// connections, business logs, long stack traces); a few per cent are lines the catalogue knows
// (busy replies, timeouts, closes, route changes, registrations, pipeline and watermark lines).
//
// Sizes: --size is the total on disk. The .gz files hold about 10% of the decompressed content.
// Time runs proportionally to the bytes written in each file, so each file covers the same span;
// watermark.log keeps its real cadence (4 lines a second) and sets that span.
//
// Fast: records are built from templates and constant stack traces, buffered to 1 MiB chunks and
// written with one write call each (gzip runs on the libuv pool meanwhile). Plain Node; needs `npm run build`.

import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { once } from 'node:events';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Headers are written by the layouts' render templates (src/parse/layouts.ts through the built
// src/parse/render.ts): the definitions the parser reads them with.
const RENDER = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'parse', 'render.js');
if (!fs.existsSync(RENDER)) {
  process.stderr.write('bench-gen: run `npm run build` first (headers are written by the built layouts)\n');
  process.exit(2);
}
const { HeaderRenderer } = await import(pathToFileURL(RENDER).href);
// Messages the catalogue knows are written by its entries (src/parse/message-render.ts): the same
// definitions that read them.
const { renderMessage: M, responseExceptionMessage } = await import(pathToFileURL(path.join(path.dirname(RENDER), 'message-render.js')).href);
/** A header writer of one layout; every machine of the set runs in GMT+8. */
function headerWriter(layoutId) {
  const r = new HeaderRenderer(layoutId, () => ZONE_MS / 60000);
  return (epochMs, level, thread, logger, pid) => r.header({ epochMs, level, thread, logger, pid });
}

/** Bump when the generated content changes, so that cached sets are regenerated. */
export const GEN_VERSION = 1;

const CHUNK = 1 << 20;

// ---------------------------------------------------------------------------------------------
// Sizes
// ---------------------------------------------------------------------------------------------

const UNITS = { b: 1, k: 1024, kb: 1000, kib: 1024, m: 1024 ** 2, mb: 1e6, mib: 1024 ** 2, g: 1024 ** 3, gb: 1e9, gib: 1024 ** 3 };

/** '1GiB', '200MiB', '500MB', '1.5g', '1048576' -> bytes */
export function parseSize(s) {
  const m = /^\s*(\d+(?:\.\d+)?)\s*([a-z]*)\s*$/i.exec(String(s));
  if (!m) throw new Error(`bad size: ${s} (use e.g. 1GiB, 200MiB, 500MB)`);
  const unit = m[2].toLowerCase() || 'b';
  if (!(unit in UNITS)) throw new Error(`bad size unit in ${s} (use B, KiB, MiB, GiB, KB, MB, GB)`);
  const n = Math.round(Number(m[1]) * UNITS[unit]);
  if (n < 1024 * 1024) throw new Error(`size too small: ${s} (at least 1MiB)`);
  return n;
}

/** bytes -> '1.00 GiB' / '200.0 MiB' */
export function fmtBytes(n) {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(2)} GiB`;
  if (n >= 1024 ** 2) return `${(n / 1024 ** 2).toFixed(1)} MiB`;
  if (n >= 1024) return `${(n / 1024).toFixed(1)} KiB`;
  return `${n} B`;
}

// ---------------------------------------------------------------------------------------------
// PRNG (mulberry32) and string seeds
// ---------------------------------------------------------------------------------------------

class Rng {
  constructor(seed) {
    this.s = seed >>> 0;
  }
  next() {
    let t = (this.s = (this.s + 0x6d2b79f5) >>> 0);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(lo, hi) {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }
  pick(a) {
    return a[Math.floor(this.next() * a.length)];
  }
  chance(p) {
    return this.next() < p;
  }
  hex(n) {
    let s = '';
    for (let i = 0; i < n; i++) s += HEX[Math.floor(this.next() * 16)];
    return s;
  }
  /** a Java long as Long.toString prints it (may be negative) */
  javaLong() {
    const hi = BigInt(Math.floor(this.next() * 4294967296));
    const lo = BigInt(Math.floor(this.next() * 4294967296));
    return BigInt.asIntN(64, (hi << 32n) | lo).toString();
  }
}
const HEX = '0123456789abcdef';

function hashSeed(...parts) {
  let h = 2166136261;
  for (const ch of parts.join('/')) {
    h ^= ch.charCodeAt(0);
    h = Math.imul(h, 16777619);
  }
  return h >>> 0;
}

/** Weighted choice table: [[weight, value], ...] -> () => value */
function chooser(rng, table) {
  const total = table.reduce((s, [w]) => s + w, 0);
  const cum = [];
  let acc = 0;
  for (const [w, v] of table) {
    acc += w / total;
    cum.push([acc, v]);
  }
  return () => {
    const x = rng.next();
    for (let i = 0; i < cum.length; i++) if (x < cum[i][0]) return cum[i][1];
    return cum[cum.length - 1][1];
  };
}

// All logs here are in GMT+8 (servers by their pattern, clients and the application by the JVM zone
// of the machines).
const ZONE_MS = 8 * 3600 * 1000;

// ---------------------------------------------------------------------------------------------
// Constant stack traces (frames as printed, without the leading tab)
// ---------------------------------------------------------------------------------------------

const JDK_SCHED = [
  'at java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:511)',
  'at java.util.concurrent.FutureTask.runAndReset(FutureTask.java:308)',
  'at java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.access$301(ScheduledThreadPoolExecutor.java:180)',
  'at java.util.concurrent.ScheduledThreadPoolExecutor$ScheduledFutureTask.run(ScheduledThreadPoolExecutor.java:294)',
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
  'at java.lang.Thread.run(Thread.java:748)',
];
const NETTY_READ = [
  'at sun.nio.ch.FileDispatcherImpl.read0(Native Method)',
  'at sun.nio.ch.SocketDispatcher.read(SocketDispatcher.java:39)',
  'at sun.nio.ch.IOUtil.readIntoNativeBuffer(IOUtil.java:223)',
  'at sun.nio.ch.IOUtil.read(IOUtil.java:192)',
  'at sun.nio.ch.SocketChannelImpl.read(SocketChannelImpl.java:380)',
  'at io.netty.buffer.PooledByteBuf.setBytes(PooledByteBuf.java:253)',
  'at io.netty.buffer.AbstractByteBuf.writeBytes(AbstractByteBuf.java:1134)',
  'at io.netty.channel.socket.nio.NioSocketChannel.doReadBytes(NioSocketChannel.java:350)',
  'at io.netty.channel.nio.AbstractNioByteChannel$NioByteUnsafe.read(AbstractNioByteChannel.java:151)',
  'at io.netty.channel.nio.NioEventLoop.processSelectedKey(NioEventLoop.java:719)',
  'at io.netty.channel.nio.NioEventLoop.processSelectedKeysOptimized(NioEventLoop.java:655)',
  'at io.netty.channel.nio.NioEventLoop.processSelectedKeys(NioEventLoop.java:581)',
  'at io.netty.channel.nio.NioEventLoop.run(NioEventLoop.java:493)',
  'at io.netty.util.concurrent.SingleThreadEventExecutor$4.run(SingleThreadEventExecutor.java:989)',
  'at io.netty.util.internal.ThreadExecutorMap$2.run(ThreadExecutorMap.java:74)',
  'at java.lang.Thread.run(Thread.java:748)',
];
const RESET = ['java.io.IOException: Connection reset by peer', ...NETTY_READ];

// client 4.9.4 synchronous send, from invokeSyncImpl down to DefaultMQProducer.send (4.9.4 line numbers)
const SEND_494 = [
  'at org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:438)',
  'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:390)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:521)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:505)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:449)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:817)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:575)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1363)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1307)',
  'at org.apache.rocketmq.client.producer.DefaultMQProducer.send(DefaultMQProducer.java:333)',
];
const BUSY_494 = [
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.processSendResponse(MQClientAPIImpl.java:675)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:523)',
  ...SEND_494.slice(3),
];
/** the frames of DefaultMQProducer.send below sendDefaultImpl, with the line sendDefaultImpl threw at */
const sendDefaultThrow = (line) => [`at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:${line})`, ...SEND_494.slice(7)];
const ROUTE_494 = [
  'at org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:438)',
  'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:390)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1394)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.getTopicRouteInfoFromNameServer(MQClientAPIImpl.java:1384)',
  'at org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:623)',
  'at org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:510)',
  'at org.apache.rocketmq.client.impl.factory.MQClientInstance.updateTopicRouteInfoFromNameServer(MQClientInstance.java:359)',
  'at org.apache.rocketmq.client.impl.factory.MQClientInstance$3.run(MQClientInstance.java:276)',
  ...JDK_SCHED,
];
const REGISTER_498 = [
  'at org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:438)',
  'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:390)',
  'at org.apache.rocketmq.broker.out.BrokerOuterAPI.registerBroker(BrokerOuterAPI.java:212)',
  'at org.apache.rocketmq.broker.out.BrokerOuterAPI.access$100(BrokerOuterAPI.java:69)',
  'at org.apache.rocketmq.broker.out.BrokerOuterAPI$1.run(BrokerOuterAPI.java:163)',
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
  'at java.lang.Thread.run(Thread.java:748)',
];
// client 5.3.0 send, called from a push consumer's listener (logback prints the whole stack)
const SEND_530 = [
  'at org.apache.rocketmq.remoting.netty.NettyRemotingAbstract.invokeSyncImpl(NettyRemotingAbstract.java:562)',
  'at org.apache.rocketmq.remoting.netty.NettyRemotingClient.invokeSync(NettyRemotingClient.java:566)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessageSync(MQClientAPIImpl.java:628)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:612)',
  'at org.apache.rocketmq.client.impl.MQClientAPIImpl.sendMessage(MQClientAPIImpl.java:556)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendKernelImpl(DefaultMQProducerImpl.java:1007)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.sendDefaultImpl(DefaultMQProducerImpl.java:741)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1535)',
  'at org.apache.rocketmq.client.impl.producer.DefaultMQProducerImpl.send(DefaultMQProducerImpl.java:1477)',
  'at org.apache.rocketmq.client.producer.DefaultMQProducer.sendDirect(DefaultMQProducer.java:681)',
  'at org.apache.rocketmq.client.producer.DefaultMQProducer.send(DefaultMQProducer.java:393)',
  'at com.example.payment.mq.PaymentResultProducer.send(PaymentResultProducer.java:41)',
  'at com.example.payment.service.PaymentService.complete(PaymentService.java:203)',
  'at com.example.payment.mq.OrderCreatedListener.consumeMessage(OrderCreatedListener.java:52)',
  'at org.apache.rocketmq.client.impl.consumer.ConsumeMessageConcurrentlyService$ConsumeRequest.run(ConsumeMessageConcurrentlyService.java:402)',
  'at java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:511)',
  'at java.util.concurrent.FutureTask.run(FutureTask.java:266)',
  'at java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1149)',
  'at java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:624)',
  'at java.lang.Thread.run(Thread.java:748)',
];

// order-service: the publisher, called inside a @Transactional service from a Spring MVC controller
const APP_PUBLISH = [
  'at com.example.order.mq.OrderEventPublisher.publish(OrderEventPublisher.java:58)',
  'at com.example.order.service.OrderService.createOrder(OrderService.java:112)',
];
const APP_SERVICE_TX = [
  'at com.example.order.service.OrderService$$FastClassBySpringCGLIB$$6a8f3b1e.invoke(<generated>)',
  'at org.springframework.cglib.proxy.MethodProxy.invoke(MethodProxy.java:218)',
  'at org.springframework.aop.framework.CglibAopProxy$CglibMethodInvocation.invokeJoinpoint(CglibAopProxy.java:793)',
  'at org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:163)',
  'at org.springframework.transaction.interceptor.TransactionInterceptor$1.proceedWithInvocation(TransactionInterceptor.java:123)',
  'at org.springframework.transaction.interceptor.TransactionAspectSupport.invokeWithinTransaction(TransactionAspectSupport.java:388)',
  'at org.springframework.transaction.interceptor.TransactionInterceptor.invoke(TransactionInterceptor.java:119)',
  'at org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:186)',
  'at org.springframework.aop.framework.CglibAopProxy$DynamicAdvisedInterceptor.intercept(CglibAopProxy.java:708)',
  'at com.example.order.service.OrderService$$EnhancerBySpringCGLIB$$1c2d9e4f.createOrder(<generated>)',
  'at com.example.order.web.OrderController.create(OrderController.java:47)',
];
const filterPair = (cls, file, line) => [
  `at ${cls}.doFilterInternal(${file}.java:${line})`,
  'at org.springframework.web.filter.OncePerRequestFilter.doFilter(OncePerRequestFilter.java:117)',
  'at org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:189)',
  'at org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:162)',
];
// Spring Boot 2.7 / Tomcat 9.0.65: from the reflective controller call down to Thread.run
const MVC_TOMCAT = [
  'at sun.reflect.NativeMethodAccessorImpl.invoke0(Native Method)',
  'at sun.reflect.NativeMethodAccessorImpl.invoke(NativeMethodAccessorImpl.java:62)',
  'at sun.reflect.DelegatingMethodAccessorImpl.invoke(DelegatingMethodAccessorImpl.java:43)',
  'at java.lang.reflect.Method.invoke(Method.java:498)',
  'at org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:205)',
  'at org.springframework.web.method.support.InvocableHandlerMethod.invokeForRequest(InvocableHandlerMethod.java:150)',
  'at org.springframework.web.servlet.mvc.method.annotation.ServletInvocableHandlerMethod.invokeAndHandle(ServletInvocableHandlerMethod.java:117)',
  'at org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter.invokeHandlerMethod(RequestMappingHandlerAdapter.java:895)',
  'at org.springframework.web.servlet.mvc.method.annotation.RequestMappingHandlerAdapter.handleInternal(RequestMappingHandlerAdapter.java:808)',
  'at org.springframework.web.servlet.mvc.method.AbstractHandlerMethodAdapter.handle(AbstractHandlerMethodAdapter.java:87)',
  'at org.springframework.web.servlet.DispatcherServlet.doDispatch(DispatcherServlet.java:1071)',
  'at org.springframework.web.servlet.DispatcherServlet.doService(DispatcherServlet.java:964)',
  'at org.springframework.web.servlet.FrameworkServlet.processRequest(FrameworkServlet.java:1006)',
  'at org.springframework.web.servlet.FrameworkServlet.doPost(FrameworkServlet.java:909)',
  'at javax.servlet.http.HttpServlet.service(HttpServlet.java:696)',
  'at org.springframework.web.servlet.FrameworkServlet.service(FrameworkServlet.java:883)',
  'at javax.servlet.http.HttpServlet.service(HttpServlet.java:779)',
  'at org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:227)',
  'at org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:162)',
  'at org.apache.tomcat.websocket.server.WsFilter.doFilter(WsFilter.java:53)',
  'at org.apache.catalina.core.ApplicationFilterChain.internalDoFilter(ApplicationFilterChain.java:189)',
  'at org.apache.catalina.core.ApplicationFilterChain.doFilter(ApplicationFilterChain.java:162)',
  ...filterPair('org.springframework.web.filter.RequestContextFilter', 'RequestContextFilter', 100),
  ...filterPair('org.springframework.web.filter.FormContentFilter', 'FormContentFilter', 93),
  ...filterPair('org.springframework.boot.actuate.metrics.web.servlet.WebMvcMetricsFilter', 'WebMvcMetricsFilter', 96),
  ...filterPair('org.springframework.web.filter.CharacterEncodingFilter', 'CharacterEncodingFilter', 201),
  'at org.apache.catalina.core.StandardWrapperValve.invoke(StandardWrapperValve.java:197)',
  'at org.apache.catalina.core.StandardContextValve.invoke(StandardContextValve.java:97)',
  'at org.apache.catalina.authenticator.AuthenticatorBase.invoke(AuthenticatorBase.java:541)',
  'at org.apache.catalina.core.StandardHostValve.invoke(StandardHostValve.java:135)',
  'at org.apache.catalina.valves.ErrorReportValve.invoke(ErrorReportValve.java:92)',
  'at org.apache.catalina.core.StandardEngineValve.invoke(StandardEngineValve.java:78)',
  'at org.apache.catalina.connector.CoyoteAdapter.service(CoyoteAdapter.java:360)',
  'at org.apache.coyote.http11.Http11Processor.service(Http11Processor.java:399)',
  'at org.apache.coyote.AbstractProcessorLight.process(AbstractProcessorLight.java:65)',
  'at org.apache.coyote.AbstractProtocol$ConnectionHandler.process(AbstractProtocol.java:890)',
  'at org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1789)',
  'at org.apache.tomcat.util.net.SocketProcessorBase.run(SocketProcessorBase.java:49)',
  'at org.apache.tomcat.util.threads.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1191)',
  'at org.apache.tomcat.util.threads.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:659)',
  'at org.apache.tomcat.util.threads.TaskThread$WrappingRunnable.run(TaskThread.java:61)',
  'at java.lang.Thread.run(Thread.java:748)',
];
/** the whole request-thread stack below the publisher call */
const APP_REQUEST = [...APP_PUBLISH, ...APP_SERVICE_TX, ...MVC_TOMCAT];

const DUP_TOP = [
  'org.springframework.dao.DataIntegrityViolationException: could not execute statement; SQL [n/a]; constraint [uk_order_no]; nested exception is org.hibernate.exception.ConstraintViolationException: could not execute statement',
  'at org.springframework.orm.jpa.vendor.HibernateJpaDialect.convertHibernateAccessException(HibernateJpaDialect.java:276)',
  'at org.springframework.orm.jpa.vendor.HibernateJpaDialect.translateExceptionIfPossible(HibernateJpaDialect.java:233)',
  'at org.springframework.orm.jpa.AbstractEntityManagerFactoryBean.translateExceptionIfPossible(AbstractEntityManagerFactoryBean.java:551)',
  'at org.springframework.dao.support.ChainedPersistenceExceptionTranslator.translateExceptionIfPossible(ChainedPersistenceExceptionTranslator.java:61)',
  'at org.springframework.dao.support.DataAccessUtils.translateIfNecessary(DataAccessUtils.java:242)',
  'at org.springframework.dao.support.PersistenceExceptionTranslationInterceptor.invoke(PersistenceExceptionTranslationInterceptor.java:152)',
  'at org.springframework.aop.framework.ReflectiveMethodInvocation.proceed(ReflectiveMethodInvocation.java:186)',
  'at com.example.order.repository.OrderRepositoryImpl.save(OrderRepositoryImpl.java:88)',
  'at com.example.order.service.OrderService.createOrder(OrderService.java:97)',
  ...APP_SERVICE_TX,
  ...MVC_TOMCAT,
];
const DUP_CAUSE = [
  'at com.mysql.cj.jdbc.exceptions.SQLError.createSQLException(SQLError.java:117)',
  'at com.mysql.cj.jdbc.exceptions.SQLExceptionsMapping.translateException(SQLExceptionsMapping.java:122)',
  'at com.mysql.cj.jdbc.ClientPreparedStatement.executeInternal(ClientPreparedStatement.java:916)',
  'at com.mysql.cj.jdbc.ClientPreparedStatement.executeUpdateInternal(ClientPreparedStatement.java:1061)',
  'at com.mysql.cj.jdbc.ClientPreparedStatement.executeUpdateInternal(ClientPreparedStatement.java:1009)',
  'at com.mysql.cj.jdbc.ClientPreparedStatement.executeLargeUpdate(ClientPreparedStatement.java:1320)',
  'at com.mysql.cj.jdbc.ClientPreparedStatement.executeUpdate(ClientPreparedStatement.java:994)',
  'at com.zaxxer.hikari.pool.ProxyPreparedStatement.executeUpdate(ProxyPreparedStatement.java:61)',
  'at com.zaxxer.hikari.pool.HikariProxyPreparedStatement.executeUpdate(HikariProxyPreparedStatement.java)',
  'at org.hibernate.engine.jdbc.internal.ResultSetReturnImpl.executeUpdate(ResultSetReturnImpl.java:197)',
  'at org.hibernate.engine.jdbc.batch.internal.NonBatchingBatch.addToBatch(NonBatchingBatch.java:46)',
  'at org.hibernate.persister.entity.AbstractEntityPersister.insert(AbstractEntityPersister.java:3375)',
  'at org.hibernate.persister.entity.AbstractEntityPersister.insert(AbstractEntityPersister.java:4009)',
  'at org.hibernate.action.internal.EntityInsertAction.execute(EntityInsertAction.java:107)',
  'at org.hibernate.engine.spi.ActionQueue.executeActions(ActionQueue.java:604)',
  'at org.hibernate.engine.spi.ActionQueue.executeActions(ActionQueue.java:478)',
  'at org.hibernate.event.internal.AbstractFlushingEventListener.performExecutions(AbstractFlushingEventListener.java:356)',
  'at org.hibernate.event.internal.DefaultFlushEventListener.onFlush(DefaultFlushEventListener.java:39)',
  'at org.hibernate.internal.SessionImpl.doFlush(SessionImpl.java:1454)',
];
const READ_TIMEOUT_TOP = [
  'org.springframework.web.client.ResourceAccessException: I/O error on POST request for "http://inventory-service/api/v1/stock/reserve": Read timed out; nested exception is java.net.SocketTimeoutException: Read timed out',
  'at org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:785)',
  'at org.springframework.web.client.RestTemplate.execute(RestTemplate.java:711)',
  'at org.springframework.web.client.RestTemplate.postForObject(RestTemplate.java:437)',
  'at com.example.order.client.InventoryClient.reserve(InventoryClient.java:64)',
  'at com.example.order.service.OrderService.createOrder(OrderService.java:104)',
  ...APP_SERVICE_TX,
  ...MVC_TOMCAT,
];
const READ_TIMEOUT_CAUSE = [
  'at java.net.SocketInputStream.socketRead0(Native Method)',
  'at java.net.SocketInputStream.socketRead(SocketInputStream.java:116)',
  'at java.net.SocketInputStream.read(SocketInputStream.java:171)',
  'at java.io.BufferedInputStream.fill(BufferedInputStream.java:246)',
  'at java.io.BufferedInputStream.read1(BufferedInputStream.java:286)',
  'at sun.net.www.http.HttpClient.parseHTTPHeader(HttpClient.java:735)',
  'at sun.net.www.http.HttpClient.parseHTTP(HttpClient.java:678)',
  'at sun.net.www.protocol.http.HttpURLConnection.getInputStream0(HttpURLConnection.java:1593)',
  'at java.net.HttpURLConnection.getResponseCode(HttpURLConnection.java:480)',
  'at org.springframework.http.client.SimpleClientHttpResponse.getRawStatusCode(SimpleClientHttpResponse.java:55)',
  'at org.springframework.web.client.RestTemplate.doExecute(RestTemplate.java:776)',
];

// logback packaging data, as Spring Boot's %wEx prints it: "~[jar:version]" after each frame
const JARS = [
  ['org.springframework.web.servlet.', 'spring-webmvc-5.3.23.jar:5.3.23'],
  ['org.springframework.web.', 'spring-web-5.3.23.jar:5.3.23'],
  ['org.springframework.http.', 'spring-web-5.3.23.jar:5.3.23'],
  ['org.springframework.aop.', 'spring-aop-5.3.23.jar:5.3.23'],
  ['org.springframework.transaction.', 'spring-tx-5.3.23.jar:5.3.23'],
  ['org.springframework.dao.', 'spring-tx-5.3.23.jar:5.3.23'],
  ['org.springframework.orm.', 'spring-orm-5.3.23.jar:5.3.23'],
  ['org.springframework.cglib.', 'spring-core-5.3.23.jar:5.3.23'],
  ['org.springframework.boot.actuate.', 'spring-boot-actuator-2.7.5.jar:2.7.5'],
  ['javax.servlet.', 'tomcat-embed-core-9.0.65.jar:4.0.FR'],
  ['org.apache.tomcat.websocket.', 'tomcat-embed-websocket-9.0.65.jar:9.0.65'],
  ['org.apache.catalina.', 'tomcat-embed-core-9.0.65.jar:9.0.65'],
  ['org.apache.coyote.', 'tomcat-embed-core-9.0.65.jar:9.0.65'],
  ['org.apache.tomcat.', 'tomcat-embed-core-9.0.65.jar:9.0.65'],
  ['org.apache.rocketmq.remoting.', 'rocketmq-remoting-4.9.4.jar:4.9.4'],
  ['org.apache.rocketmq.client.', 'rocketmq-client-4.9.4.jar:4.9.4'],
  ['org.hibernate.', 'hibernate-core-5.6.12.Final.jar:5.6.12.Final'],
  ['com.mysql.', 'mysql-connector-j-8.0.31.jar:8.0.31'],
  ['com.zaxxer.', 'HikariCP-4.0.3.jar:na'],
  ['com.example.', 'classes/:na'],
];
function jarred(trace) {
  return trace.map((l) => {
    if (!l.startsWith('at ')) return l;
    const cls = l.slice(3, l.indexOf('('));
    let jar = 'na:1.8.0_352';
    for (const [prefix, j] of JARS) {
      if (cls.startsWith(prefix)) {
        jar = j;
        break;
      }
    }
    return `${l} ~[${jar}]`;
  });
}

/** Trace lines: frames and "... N more/omitted" get a leading tab. */
const tabbed = (trace) => trace.map((l) => (l.startsWith('at ') || l.startsWith('... ') ? `\t${l}` : l));
const joinLF = (trace) => tabbed(trace).join('\n') + '\n';
const joinCRLF = (trace) => tabbed(trace).join('\r\n') + '\r\n';

/** A cause's frames as logback prints them: the frames it shares with the enclosing trace (from the bottom) are omitted. */
function logbackCause(head, frames, enclosing) {
  let m = frames.length - 1;
  let n = enclosing.length - 1;
  while (m >= 0 && n >= 0 && frames[m] === enclosing[n]) {
    m--;
    n--;
  }
  const common = frames.length - 1 - m;
  return [`Caused by: ${head}`, ...frames.slice(0, m + 1), ...(common > 0 ? [`... ${common} common frames omitted`] : [])];
}

// precomputed constant blocks
const RESET_LF = joinLF(RESET);
const SEND494_CRLF = joinCRLF([...SEND_494, ...APP_REQUEST]);
const BUSY494_CRLF = joinCRLF([...BUSY_494, ...APP_REQUEST]);
const ROUTE494_CRLF = joinCRLF(ROUTE_494);
const REGISTER_LF = joinLF(REGISTER_498);
const SEND530_LF = joinLF(SEND_530);
// application (packaging data); MQClientException thrown by sendDefaultImpl with the attempt's exception as cause
const APP_SENDFAILED_OUTER = [...sendDefaultThrow(647), ...APP_REQUEST];
const APP_SENDFAILED_LF = joinLF(jarred(APP_SENDFAILED_OUTER));
const appSendFailedCause = (head) => joinLF(jarred(logbackCause(head, [...SEND_494, ...APP_REQUEST], APP_SENDFAILED_OUTER)));
const APP_BUSY_LF = joinLF(jarred([...BUSY_494, ...APP_REQUEST]));
const APP_CALLTIMEOUT_LF = joinLF(jarred([...sendDefaultThrow(649), ...APP_REQUEST]));
const APP_DUP_TOP_LF = joinLF(jarred(DUP_TOP));
const APP_DUP_CAUSE_LF = joinLF(jarred(logbackCause("java.sql.SQLIntegrityConstraintViolationException: Duplicate entry 'X' for key 'uk_order_no'", [...DUP_CAUSE, ...DUP_TOP.slice(18)], DUP_TOP.slice(1)).slice(1)));
const APP_READ_TIMEOUT_LF = joinLF(jarred([...READ_TIMEOUT_TOP, ...logbackCause('java.net.SocketTimeoutException: Read timed out', [...READ_TIMEOUT_CAUSE, ...READ_TIMEOUT_TOP.slice(2)], READ_TIMEOUT_TOP.slice(1))]));

// ---------------------------------------------------------------------------------------------
// The world: hosts, brokers, name servers, clients, topics
// ---------------------------------------------------------------------------------------------

const TOPICS = ['OrderTopic', 'PaymentTopic', 'InventoryTopic', 'NotifyTopic', 'OrderTimeoutTopic'];
const PGROUPS = ['order-producer-group', 'payment-producer-group', 'notify-producer-group'];
const CGROUPS = ['order-consumer-group', 'payment-consumer-group', 'inventory-consumer-group', 'notify-consumer-group'];

function world(nHosts) {
  const letters = 'abcdefghijklmnopqrstuvwxyz';
  const hosts = [];
  for (let k = 1; k <= nHosts; k++) {
    const ip = `10.20.0.${10 + k}`;
    hosts.push({
      k,
      name: `host-${k}`,
      ip,
      appIp: `10.20.1.${10 + k}`,
      brokerName: `broker-${k <= 26 ? letters[k - 1] : k}`,
      brokerAddr: `${ip}:10911`,
      haAddr: `${ip}:10912`,
      nsAddr: `${ip}:9876`,
      pidOrder: 20000 + k * 137,
      pidPay: 30000 + k * 211,
    });
  }
  const namesrvs = hosts.slice(0, Math.min(4, hosts.length)).map((h) => h.nsAddr);
  return { hosts, namesrvs, nsList: `[${namesrvs.join(', ')}]` };
}

function queueData(b, n = 8) {
  return `QueueData [brokerName=${b}, readQueueNums=${n}, writeQueueNums=${n}, perm=6, topicSysFlag=0]`;
}
function routeData(W, v5, drop) {
  const hs = W.hosts.filter((h) => h.brokerName !== drop);
  const qd = `[${hs.map((h) => queueData(h.brokerName)).join(', ')}]`;
  const bd = `[${hs
    .map((h) => (v5 ? `BrokerData [brokerName=${h.brokerName}, brokerAddrs={0=${h.brokerAddr}}, enableActingMaster=false]` : `BrokerData [brokerName=${h.brokerName}, brokerAddrs={0=${h.brokerAddr}}]`))
    .join(', ')}]`;
  return v5
    ? `TopicRouteData [orderTopicConf=null, queueDatas=${qd}, brokerDatas=${bd}, filterServerTable={}, topicQueueMappingInfoTable=null]`
    : `TopicRouteData [orderTopicConf=null, queueDatas=${qd}, brokerDatas=${bd}, filterServerTable={}]`;
}
const mq = (topic, broker, q) => `MessageQueue [topic=${topic}, brokerName=${broker}, queueId=${q}]`;

// ---------------------------------------------------------------------------------------------
// Record generators: one factory per file kind; each returns gen(t) -> string (one record,
// possibly multi-line, with its line endings) and counts the catalogue lines it writes in `st`.
// ---------------------------------------------------------------------------------------------

function stats() {
  return { eventLines: 0 };
}

/** broker.log, 4.9.8 texts, logback P-FULL */
function brokerGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-server');
  const L = (t, level, thread, msg) => `${H(t, level, thread, '')}${msg}\n`;
  const chan = () => {
    const cip = `10.20.1.${rng.int(11, 60)}`;
    const port = rng.int(30000, 65000);
    return { cip, port, info: `ClientChannelInfo [channel=[id: 0x${rng.hex(8)}, L:/${h.ip}:10911 - R:/${cip}:${port}], clientId=${cip}@${rng.int(1000, 60000)}, language=JAVA, version=373, lastUpdateTimestamp=${1716163200000 + rng.int(0, 86400000)}]` };
  };
  const sub = (topic) => `SubscriptionData [classFilterMode=false, topic=${topic}, subString=*, tagsSet=[], codeSet=[], subVersion=${1716163200000 + rng.int(0, 86400000)}, expressionType=TAG]`;
  const SERVICES = ['AllocateMappedFileService', 'ReputMessageService', 'FlushConsumeQueueService', 'FlushRealTimeService', 'StoreStatsService', 'HAService', 'AcceptSocketService', 'GroupTransferService', 'HAClient', 'ScheduleMessageService', 'PullRequestHoldService', 'ClientHousekeepingService', 'TransactionalMessageCheckService', 'FileWatchService', 'NettyEventExecutor'];
  const PROPS = ['brokerClusterName=DefaultCluster', `brokerName=${h.brokerName}`, 'brokerId=0', `brokerIP1=${h.ip}`, `namesrvAddr=${W.namesrvs.join(';')}`, 'listenPort=10911', 'sendMessageThreadPoolNums=4', 'pullMessageThreadPoolNums=32', 'heartbeatThreadPoolNums=8', 'flushDiskType=ASYNC_FLUSH', 'brokerRole=ASYNC_MASTER', 'deleteWhen=04', 'fileReservedTime=72', 'waitTimeMillsInSendQueue=200', 'osPageCacheBusyTimeOutMills=1000', 'brokerFastFailureEnable=true', 'registerNameServerPeriod=30000', 'forceRegister=true', 'autoCreateTopicEnable=false', 'storePathRootDir=/home/rocketmq/store', 'mapedFileSizeCommitLog=1073741824', 'maxMessageSize=4194304', 'transientStorePoolEnable=false', 'diskMaxUsedSpaceRatio=75'];
  const pick = chooser(rng, [
    [20, 'producer'],
    [15, 'consumer'],
    [10, 'rmProducer'],
    [8, 'rmConsumer'],
    [6, 'subscription'],
    [4, 'dispatch'],
    [4, 'slave'],
    [4, 'unregister'],
    [2, 'scanExpired'],
    [0.6, 'register'],
    [0.05, 'registerFail'],
    [0.015, 'restart'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'producer': {
        return L(t, 'INFO', `HeartbeatThread_${rng.int(1, 8)}`, `new producer connected, group: ${rng.pick(PGROUPS)} channel: ${chan().info}`);
      }
      case 'consumer': {
        return L(t, 'INFO', `HeartbeatThread_${rng.int(1, 8)}`, `new consumer connected, group: ${rng.pick(CGROUPS)} CONSUME_PASSIVELY CLUSTERING channel: ${chan().info}`);
      }
      case 'rmProducer': {
        const ch = chan();
        return L(t, 'INFO', 'NettyEventExecutor', `NETTY EVENT: remove channel[${ch.info}][${ch.cip}:${ch.port}] from ProducerManager groupChannelTable, producer group: ${rng.pick(PGROUPS)}`);
      }
      case 'rmConsumer': {
        return L(t, 'WARN', 'NettyEventExecutor', `NETTY EVENT: remove not active channel[${chan().info}] from ConsumerGroupInfo groupChannelTable, consumer group: ${rng.pick(CGROUPS)}`);
      }
      case 'subscription': {
        return L(t, 'INFO', `HeartbeatThread_${rng.int(1, 8)}`, `subscription changed, add new topic, group: ${rng.pick(CGROUPS)} ${sub(rng.pick(TOPICS))}`);
      }
      case 'dispatch':
        return L(t, 'INFO', 'BrokerControllerScheduledThread1', `dispatch behind commit log ${rng.chance(0.9) ? 0 : rng.int(1, 90000)} bytes`);
      case 'slave':
        return L(t, 'INFO', 'BrokerControllerScheduledThread1', M('store-sync/slave-fall-behind', { behindBytes: rng.int(0, 4096) }));
      case 'unregister': {
        return L(t, 'INFO', `ClientManageThread_${rng.int(1, 8)}`, `unregister a producer[${rng.pick(PGROUPS)}] from groupChannelTable ${chan().info}`);
      }
      case 'scanExpired': {
        const ch = chan();
        return L(t, 'WARN', 'ClientHousekeepingScheduledThread1', `SCAN: remove expired channel[${ch.cip}:${ch.port}] from ProducerManager groupChannelTable, producer group name: ${rng.pick(PGROUPS)}`);
      }
      case 'register': {
        // one line per name server per tick (catalogue: broker-registered)
        let s = '';
        for (const ns of W.namesrvs) {
          s += L(t, 'INFO', `brokerOutApi_thread_${rng.int(1, 4)}`, M('broker-registered/register-broker-id', { brokerId: 0, namesrvAddr: ns }));
          st.eventLines++;
        }
        return s;
      }
      case 'registerFail': {
        const ns = rng.pick(W.namesrvs);
        st.eventLines += 2; // registerBroker Exception + the timeout text in the trace
        return L(t, 'WARN', `brokerOutApi_thread_${rng.int(1, 4)}`, M('register-failed/register-broker-exception', { namesrvAddr: ns })) + `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response', { addr: ns, timeoutMs: 6000 })}\n` + REGISTER_LF;
      }
      case 'restart': {
        let s = L(t, 'INFO', 'ShutdownHook', M('shutdown/broker-hook', { shutdownTimes: 1 }));
        s += L(t, 'INFO', 'ShutdownHook', M('shutdown/broker-hook-over', { consumingTimeTotal: rng.int(800, 4000) }));
        const t2 = t + 1000;
        for (const p of PROPS) s += L(t2, 'INFO', 'main', p);
        for (const svc of SERVICES) s += L(t2, 'INFO', 'main', `Try to start service thread:${svc} started:false lastThread:null`);
        s += L(t2, 'INFO', 'main', M('startup/broker', { brokerName: h.brokerName, brokerAddr: h.brokerAddr, serializeType: 'JSON', namesrvAddr: W.namesrvs.join(';') }, 'namesrv'));
        st.eventLines += 3;
        return s;
      }
    }
    return '';
  };
}

/** remoting.log of the broker: Netty server pipeline lines and connection errors */
function remotingGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-server');
  const L = (t, level, thread, msg) => `${H(t, level, thread, '')}${msg}\n`;
  const peer = () => `10.20.1.${rng.int(11, 60)}:${rng.int(30000, 65000)}`;
  const pick = chooser(rng, [
    [30, 'connect'],
    [30, 'disconnect'],
    [8, 'reset'],
    [1, 'idle'],
  ]);
  return (t) => {
    const a = peer();
    const th = `NettyServerCodecThread_${rng.int(1, 8)}`;
    switch (pick()) {
      case 'connect':
        st.eventLines += 2;
        return L(t, 'INFO', th, M('pipeline/server-registered', { addr: a })) + L(t, 'INFO', th, M('pipeline/server-active', { addr: a }));
      case 'disconnect':
        st.eventLines += 3;
        return L(t, 'INFO', th, M('pipeline/server-inactive', { addr: a })) + L(t, 'INFO', th, M('pipeline/server-unregistered', { addr: a })) + L(t, 'INFO', 'NettyEventExecutor', M('channel-closed/connection-closed', { addr: a, result: true }));
      case 'reset':
        st.eventLines += 1;
        return L(t, 'WARN', th, M('pipeline/server-exception', { addr: a })) + L(t, 'WARN', th, 'NETTY SERVER PIPELINE: exceptionCaught exception.') + RESET_LF;
      case 'idle':
        st.eventLines += 2;
        return L(t, 'WARN', th, M('pipeline/server-idle', { addr: a })) + L(t, 'INFO', 'NettyEventExecutor', M('channel-closed/connection-closed', { addr: a, result: true }));
    }
    return '';
  };
}

/** store.log, 4.9.8 texts */
function storeGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-server');
  const L = (t, level, thread, msg) => `${H(t, level, thread, '')}${msg}\n`;
  const BUCKETS = ['<=0ms', '0~10ms', '10~50ms', '50~100ms', '100~200ms', '200~500ms', '500ms~1s', '1~2s', '2~3s', '3~4s', '4~5s', '5~10s', '10s~'];
  let offset = 1073741824 * rng.int(10, 90);
  const pick = chooser(rng, [
    [30, 'tps'],
    [30, 'px'],
    [8, 'delete'],
    [4, 'ha'],
    [1.5, 'pagecache'],
    [0.15, 'inlock'],
    [0.3, 'mapped'],
    [0.1, 'flush'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'tps': {
        const put = (rng.next() * 3000).toFixed(1);
        return L(t, 'INFO', 'StoreStatsService', `[STORETPS] put_tps ${put} get_found_tps ${(rng.next() * 3000).toFixed(1)} get_miss_tps ${(rng.next() * 300).toFixed(1)} get_transfered_tps ${(rng.next() * 6000).toFixed(1)}`);
      }
      case 'px':
        return L(t, 'INFO', 'StoreStatsService', `findPutMessageEntireTimePX 0.99=${rng.int(0, 2)}ms cost ${rng.int(0, 1)}ms`) + L(t, 'INFO', 'StoreStatsService', `findPutMessageEntireTimePX 0.999=${rng.int(1, 12)}ms cost ${rng.int(0, 1)}ms`);
      case 'delete':
        return L(t, 'INFO', 'StoreScheduledThread1', 'begin to delete before 72 hours file. timeup: false spacefull: false manualDeleteFileSeveralTimes: 0 cleanAtOnce: false');
      case 'ha':
        return L(t, 'INFO', 'ReadSocketService', `slave[10.20.2.${h.k + 10}:${rng.int(30000, 65000)}] request offset ${(offset += rng.int(1000, 900000))}`);
      case 'pagecache': {
        st.eventLines++;
        const total = rng.int(20000, 200000);
        let rest = total;
        const parts = BUCKETS.map((b, i) => {
          let n = 0;
          if (i === 0) n = Math.floor(rest * 0.8);
          else if (i === 1) n = Math.floor(rest * 0.95);
          else if (i < 5) n = Math.min(rest, rng.int(0, 40));
          else if (i < 7) n = rng.chance(0.05) ? Math.min(rest, rng.int(0, 3)) : 0;
          rest -= n;
          return `[${b}]:${n}`;
        });
        return L(t, 'INFO', 'StoreStatsService', M('store-slow/pagecachert', { totalPut: total, putMessageDistributeTime: parts.join(' ') }));
      }
      case 'inlock': {
        st.eventLines++;
        const ms = rng.int(501, 1800);
        return L(t, 'WARN', `SendMessageThread_${rng.int(1, 4)}`, M('store-slow/in-lock', {
          costMs: ms,
          bodyLength: rng.int(200, 4000),
          appendMessageResult: `AppendMessageResult{status=PUT_OK, wroteOffset=${(offset += 1190)}, wroteBytes=1190, msgId='0A14000B00002A9F${offset.toString(16).toUpperCase().padStart(16, '0')}', storeTimestamp=${1716163200000 + rng.int(0, 86400000)}, logicsOffset=${rng.int(1000, 9000000)}, pagecacheRT=${ms - 1}, msgNum=1}`,
        }));
      }
      case 'mapped':
        st.eventLines++;
        return L(t, 'WARN', 'AllocateMappedFileService', M('store-slow/mapped-file', { costMs: rng.int(11, 80), queueSize: 0, filePath: `/home/rocketmq/store/commitlog/${String((offset += 1073741824)).padStart(20, '0')}`, fileSize: 1073741824 }));
      case 'flush':
        st.eventLines++;
        return L(t, 'INFO', 'FlushRealTimeService', M('store-slow/flush', { costMs: rng.int(501, 2200) }));
    }
    return '';
  };
}

/** watermark.log: exactly 4 lines a second (4.9.8 queue names); gen(t) for one second */
function watermarkGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-bare');
  let hot = 0;
  return (t) => {
    const ts = H(t, 'INFO', '', '');
    if (hot > 0) hot--;
    else if (rng.chance(0.002)) hot = rng.int(3, 40);
    const sendSize = hot > 0 ? rng.int(5, 900) : rng.chance(0.1) ? rng.int(1, 3) : 0;
    const sendSlow = hot > 0 ? rng.int(20, 420) : 0;
    st.eventLines += 4;
    return (
      `${ts}${M('watermark/broker', { queue: 'Send', size: sendSize, slowMs: sendSlow })}\n` +
      `${ts}${M('watermark/broker', { queue: 'Pull', size: rng.chance(0.2) ? rng.int(1, 20) : 0, slowMs: 0 })}\n` +
      `${ts}${M('watermark/broker', { queue: 'Query', size: 0, slowMs: 0 })}\n` +
      `${ts}${M('watermark/broker', { queue: 'Transaction', size: 0, slowMs: 0 })}\n`
    );
  };
}

/** namesrv.log, 4.9.8 texts */
function namesrvGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-server');
  const L = (t, level, thread, msg) => `${H(t, level, thread, '')}${msg}\n`;
  const peer = () => `10.20.1.${rng.int(11, 60)}:${rng.int(30000, 65000)}`;
  const pick = chooser(rng, [
    [80, 'masterChange'],
    [3, 'kv'],
    [1, 'connect'],
    [1, 'disconnect'],
    [0.05, 'expire'],
    [0.05, 'newBroker'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'masterChange': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', `RemotingExecutorThread_${rng.int(1, 8)}`, M('broker-registered/master-address-change', { clusterName: 'DefaultCluster', brokerName: b.brokerName, oldAddr: b.brokerAddr, brokerAddr: b.brokerAddr }));
      }
      case 'kv':
        return L(t, 'INFO', 'NSScheduledThread1', '--------------------------------------------------------') + L(t, 'INFO', 'NSScheduledThread1', 'configTable SIZE: 0');
      case 'connect': {
        const a = peer();
        const th = `NettyServerCodecThread_${rng.int(1, 8)}`;
        st.eventLines += 2;
        return L(t, 'INFO', th, M('pipeline/server-registered', { addr: a })) + L(t, 'INFO', th, M('pipeline/server-active', { addr: a }));
      }
      case 'disconnect': {
        const a = peer();
        const th = `NettyServerCodecThread_${rng.int(1, 8)}`;
        st.eventLines += 3;
        return L(t, 'INFO', th, M('pipeline/server-inactive', { addr: a })) + L(t, 'INFO', th, M('pipeline/server-unregistered', { addr: a })) + L(t, 'INFO', 'NettyEventExecutor', M('channel-closed/connection-closed', { addr: a, result: true }));
      }
      case 'expire': {
        const b = rng.pick(W.hosts);
        st.eventLines += 3;
        return (
          L(t, 'WARN', 'NSScheduledThread1', M('broker-expired/addr', { brokerAddr: b.brokerAddr, idleMs: 120000 })) +
          L(t, 'INFO', 'NSScheduledThread1', M('broker-removed/remove-broker-addr', { brokerId: 0, brokerAddr: b.brokerAddr })) +
          L(t, 'INFO', 'NettyEventExecutor', M('channel-closed/connection-closed', { addr: `${b.ip}:${rng.int(30000, 65000)}`, result: true }))
        );
      }
      case 'newBroker': {
        const b = rng.pick(W.hosts);
        st.eventLines++;
        return L(t, 'INFO', `RemotingExecutorThread_${rng.int(1, 8)}`, M('broker-registered/new-broker', { brokerAddr: b.brokerAddr, haAddr: b.haAddr }));
      }
    }
    return '';
  };
}

/** heartbeat data as HeartbeatData.toString prints it */
function heartbeatData(rng, clientId) {
  const subs = TOPICS.slice(0, 3)
    .map((tp) => `SubscriptionData [classFilterMode=false, topic=${tp}, subString=*, tagsSet=[], codeSet=[], subVersion=${1716163200000 + rng.int(0, 86400000)}, expressionType=TAG]`)
    .join(', ');
  return `HeartbeatData [clientID=${clientId}, producerDataSet=[ProducerData [groupName=${PGROUPS[0]}], ProducerData [groupName=CLIENT_INNER_PRODUCER]], consumerDataSet=[ConsumerData [groupName=${CGROUPS[0]}, consumeType=CONSUME_PASSIVELY, messageModel=CLUSTERING, consumeFromWhere=CONSUME_FROM_LAST_OFFSET, unitMode=false, subscriptionDataSet=[${subs}]]]]`;
}

/** Message.toString after a failed attempt: properties, then the body as a byte array */
function messageText(rng, topic) {
  const body = `{"orderNo":"${rng.int(100000000, 999999999)}","userId":${rng.int(1000, 99999)},"amount":${rng.int(1, 99999)}.${rng.int(10, 99)},"status":"CREATED"}`;
  let bytes = '';
  for (let i = 0; i < body.length; i++) bytes += (i ? ', ' : '') + body.charCodeAt(i);
  return `Message{topic='${topic}', flag=0, properties={KEYS=${rng.int(100000000, 999999999)}, UNIQ_KEY=0A14010B${rng.hex(24).toUpperCase()}, WAIT=true, TAGS=created}, body=[${bytes}], transactionId='null'}`;
}

/** rocketmq_client.log, client 4.9.4 inner logger: `date,SSS LEVEL Logger - msg` CRLF */
function client4Gen(rng, W, h, st) {
  const clientId = `${h.appIp}@${h.pidOrder}`;
  const H = headerWriter('rocketmq-client-inner');
  const L = (t, level, logger, msg) => `${H(t, level, '', logger)}${msg}\r\n`;
  const pick = chooser(rng, [
    [60, 'persist'],
    [3, 'heartbeat'],
    [2, 'publishInfo'],
    [1, 'rebalance'],
    [0.5, 'connect'],
    [0.15, 'route'],
    [0.1, 'timeout'],
    [0.05, 'busy'],
    [0.04, 'routeFail'],
    [0.02, 'chosen'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'persist': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', 'RocketmqClient', `[persistAll] Group: ${rng.pick(CGROUPS)} ClientId: ${clientId} updateConsumeOffsetToBroker ${mq(rng.pick(TOPICS), b.brokerName, rng.int(0, 7))} ${rng.int(0, 90000000)}`);
      }
      case 'heartbeat': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', 'RocketmqClient', `send heart beat to broker[${b.brokerName} 0 ${b.brokerAddr}] success`) + L(t, 'INFO', 'RocketmqClient', heartbeatData(rng, clientId));
      }
      case 'publishInfo': {
        const tp = rng.pick(TOPICS);
        const mqs = W.hosts.flatMap((b) => [0, 1, 2, 3].map((q) => mq(tp, b.brokerName, q))).join(', ');
        return L(t, 'INFO', 'RocketmqClient', `updateTopicPublishInfo prev is not null, TopicPublishInfo [orderTopic=false, messageQueueList=[${mqs}], sendWhichQueue=ThreadLocalIndex{threadLocalIndex=${rng.int(0, 2000000)}}, haveTopicRouteInfo=true]`);
      }
      case 'rebalance': {
        const tp = rng.pick(TOPICS);
        return L(t, 'INFO', 'RocketmqClient', `rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=${rng.pick(CGROUPS)}, topic=${tp}, clientId=${clientId}, mqAllSize=${W.hosts.length * 8}, cidAllSize=${W.hosts.length}, rebalanceResultSize=8, rebalanceResultSet=[${[0, 1, 2, 3, 4, 5, 6, 7].map((q) => mq(tp, h.brokerName, q)).join(', ')}]`);
      }
      case 'connect': {
        const b = rng.pick(W.hosts);
        st.eventLines += 1;
        return (
          L(t, 'INFO', 'RocketmqRemoting', `createChannel: begin to connect remote host[${b.brokerAddr}] asynchronously`) +
          L(t, 'INFO', 'RocketmqRemoting', M('pipeline/client-connect', { local: 'UNKNOWN', addr: b.brokerAddr })) +
          L(t + 3, 'INFO', 'RocketmqRemoting', `createChannel: connect remote host[${b.brokerAddr}] success, AbstractBootstrap$PendingRegistrationPromise@${rng.hex(8)}(success)`)
        );
      }
      case 'route': {
        const tp = rng.pick(TOPICS);
        const drop = rng.pick(W.hosts).brokerName;
        const oldR = routeData(W, false, null);
        const newR = routeData(W, false, drop);
        st.eventLines += 1;
        return L(t, 'INFO', 'RocketmqClient', M('route-changed/changed', { topic: tp, old: oldR, new: newR })) + L(t, 'INFO', 'RocketmqClient', `topicRouteTable.put. Topic = ${tp}, TopicRouteData[${newR}]`);
      }
      case 'timeout': {
        // read timeout on an established channel (4.9.1+, closeSocketIfTimeout=true), then the failed attempt
        const b = rng.pick(W.hosts);
        const a = b.brokerAddr;
        const tp = rng.pick(TOPICS.slice(0, 3));
        const rem = rng.int(2900, 3000);
        let s =
          L(t, 'INFO', 'RocketmqRemoting', `closeChannel: begin close the channel[${a}] Found: true`) +
          L(t, 'INFO', 'RocketmqRemoting', M('channel-closed/removed', { addr: a })) +
          L(t, 'WARN', 'RocketmqRemoting', M('channel-closed/timeout', { timeoutMillis: 3000, addr: a })) +
          L(t, 'WARN', 'RocketmqRemoting', M('rpc-timeout/invoke-sync-wait', { addr: a })) +
          L(t + 1, 'INFO', 'RocketmqRemoting', M('pipeline/client-close', { addr: a })) +
          L(t + 1, 'INFO', 'RocketmqRemoting', `eventCloseChannel: the channel[null] has been removed from the channel table before`) +
          L(t + 1, 'INFO', 'RocketmqRemoting', M('channel-closed/connection-closed', { addr: a, result: true })) +
          L(t + 2, 'WARN', 'RocketmqClient', M('send-attempt-failed/resend', { invokeId: rng.javaLong(), rtMs: rem, mq: mq(tp, b.brokerName, rng.int(0, 7)) })) +
          `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response', { addr: a, timeoutMs: rem })}\r\n` +
          SEND494_CRLF +
          '\r\n' +
          L(t + 2, 'WARN', 'RocketmqClient', messageText(rng, tp));
        st.eventLines += 7;
        return s;
      }
      case 'busy': {
        const b = rng.pick(W.hosts);
        const tp = rng.pick(TOPICS.slice(0, 3));
        const wait = rng.int(200, 209);
        st.eventLines += 2;
        return (
          L(t, 'WARN', 'RocketmqClient', M('send-attempt-failed/resend', { invokeId: rng.javaLong(), rtMs: rng.int(200, 260), mq: mq(tp, b.brokerName, rng.int(0, 7)) })) +
          `org.apache.rocketmq.client.exception.MQBrokerException: ${responseExceptionMessage(2, M('busy-reply/timeout-clean-queue', { waitMs: wait, queueSize: rng.int(0, 40) }), b.brokerAddr)}\r\n` +
          'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/\r\n' +
          BUSY494_CRLF +
          '\r\n' +
          L(t, 'WARN', 'RocketmqClient', messageText(rng, tp))
        );
      }
      case 'routeFail': {
        const ns = rng.pick(W.namesrvs);
        st.eventLines += 2;
        return L(t, 'ERROR', 'RocketmqClient', M('route-update-failed/exception')) + `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response', { addr: ns, timeoutMs: 3000 })}\r\n` + ROUTE494_CRLF + '\r\n';
      }
      case 'chosen': {
        st.eventLines++;
        return L(t, 'INFO', 'RocketmqRemoting', M('namesrv-chosen/chosen', { old: rng.pick(W.namesrvs), new: rng.pick(W.namesrvs), namesrvIndex: rng.int(1, 999) }));
      }
    }
    return '';
  };
}

/** rocketmq_client.log of a 5.3.0 client (rmq.client.logback.xml, async appender: #?:?) */
function client5Gen(rng, W, h, st) {
  const pid = h.pidPay;
  const clientId = `${h.appIp}@${pid}#${rng.int(100000000, 999999999)}`;
  const H = headerWriter('rocketmq-client-5x');
  const L = (t, level, thread, logger, msg) => `${H(t, level, thread, logger, pid)}${msg}\n`;
  const R = 'RocketmqRemoting';
  const pick = chooser(rng, [
    [55, 'persist'],
    [4, 'heartbeat'],
    [1.5, 'rebalance'],
    [0.6, 'connect'],
    [0.15, 'route'],
    [0.1, 'timeout'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'persist': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.c.s.RemoteBrokerOffsetStore', `[persistAll] Group: ${rng.pick(CGROUPS)} ClientId: ${clientId} updateConsumeOffsetToBroker ${mq(rng.pick(TOPICS), b.brokerName, rng.int(0, 7))} ${rng.int(0, 90000000)}`);
      }
      case 'heartbeat': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.i.f.MQClientInstance', `send heart beat to broker[${b.brokerName} 0 ${b.brokerAddr}] success`) + L(t, 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.i.f.MQClientInstance', heartbeatData(rng, clientId));
      }
      case 'rebalance': {
        const tp = rng.pick(TOPICS);
        return L(t, 'INFO', 'RebalanceService', 'o.a.r.c.i.c.RebalanceImpl', `rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=${rng.pick(CGROUPS)}, topic=${tp}, clientId=${clientId}, mqAllSize=${W.hosts.length * 8}, cidAllSize=${W.hosts.length}, rebalanceResultSize=8, rebalanceResultSet=[${[0, 1, 2, 3, 4, 5, 6, 7].map((q) => mq(tp, h.brokerName, q)).join(', ')}]`);
      }
      case 'connect': {
        const b = rng.pick(W.hosts);
        const w = `NettyClientWorkerThread_${rng.int(1, 4)}`;
        st.eventLines += 2;
        return (
          L(t, 'INFO', 'MQClientFactoryScheduledThread', R, `createChannel: begin to connect remote host[${b.brokerAddr}] asynchronously`) +
          L(t + 1, 'INFO', w, R, M('pipeline/client-connect', { local: 'UNKNOWN', addr: b.brokerAddr })) +
          L(t + 2, 'INFO', w, R, M('pipeline/client-active', { addr: b.brokerAddr }))
        );
      }
      case 'route': {
        const tp = rng.pick(TOPICS);
        const drop = rng.pick(W.hosts).brokerName;
        const newR = routeData(W, true, drop);
        st.eventLines += 1;
        return (
          L(t, 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.i.f.MQClientInstance', M('route-changed/changed', { topic: tp, old: routeData(W, true, null), new: newR })) +
          L(t, 'INFO', 'MQClientFactoryScheduledThread', 'o.a.r.c.i.f.MQClientInstance', `topicRouteTable.put. Topic = ${tp}, TopicRouteData[${newR}]`)
        );
      }
      case 'timeout': {
        const b = rng.pick(W.hosts);
        const a = b.brokerAddr;
        const tp = rng.pick(TOPICS.slice(0, 3));
        const rem = rng.int(2900, 3000);
        const w = `NettyClientWorkerThread_${rng.int(1, 4)}`;
        const th = `ConsumeMessageThread_${rng.int(1, 20)}`;
        st.eventLines += 7;
        return (
          L(t, 'INFO', th, R, `closeChannel: begin close the channel[${a}] Found: true`) +
          L(t, 'INFO', th, R, M('channel-closed/removed', { addr: a })) +
          L(t, 'WARN', th, R, M('channel-closed/timeout', { timeoutMillis: 3000, addr: a })) +
          L(t, 'WARN', th, R, M('rpc-timeout/invoke-sync-wait', { addr: a })) +
          L(t + 1, 'INFO', w, R, M('pipeline/client-close', { addr: a })) +
          L(t + 1, 'INFO', w, R, M('pipeline/client-inactive', { addr: a })) +
          L(t + 1, 'INFO', w, R, M('channel-closed/connection-closed', { addr: a, result: true })) +
          L(t + 2, 'WARN', th, 'o.a.r.c.i.p.DefaultMQProducerImpl', M('send-attempt-failed/resend', { invokeId: rng.javaLong(), rtMs: rem, mq: mq(tp, b.brokerName, rng.int(0, 7)) })) +
          `org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response-slash', { addr: a, timeoutMs: rem })}\n` +
          SEND530_LF
        );
      }
    }
    return '';
  };
}

/** Spring Boot 2.x application log (order-service, uses the 4.9.4 client) */
function appGen(rng, W, h, st) {
  const pid = h.pidOrder;
  // %d %5p ${PID} --- [%t] %-40.40logger{39} : %m%n%wEx
  const H = headerWriter('spring-boot');
  const L = (t, level, thread, logger, msg) => `${H(t, level, thread, logger, pid)}${msg}\n`;
  const lg = (s) => s.padEnd(40).slice(0, 40);
  const CTRL = lg('c.e.order.web.OrderController');
  const SVC = lg('c.e.order.service.OrderService');
  const PUB = lg('c.e.order.mq.OrderEventPublisher');
  const LSN = lg('c.e.order.mq.PaymentResultListener');
  const INV = lg('c.e.order.client.InventoryClient');
  const HIK = lg('com.zaxxer.hikari.pool.HikariPool');
  const DISP = lg('o.a.c.c.C.[.[.[/].[dispatcherServlet]');
  const ACC = lg('c.e.common.web.AccessLogFilter');
  const SCHED = lg('c.e.order.job.OrderTimeoutJob');
  const http = () => `http-nio-8080-exec-${rng.int(1, 200)}`;
  const orderNo = () => `SO${rng.int(20240520, 20240521)}${rng.int(10000000, 99999999)}`;
  const pick = chooser(rng, [
    [22, 'request'],
    [18, 'created'],
    [18, 'published'],
    [14, 'consumed'],
    [14, 'access'],
    [2, 'pool'],
    [2, 'job'],
    [1.0, 'dupStack'],
    [0.7, 'readTimeout'],
    [0.08, 'sendFailed'],
    [0.04, 'busy'],
    [0.03, 'callTimeout'],
  ]);
  return (t) => {
    switch (pick()) {
      case 'request':
        return L(t, 'INFO', http(), CTRL, `Received create order request: userId=${rng.int(1000, 999999)}, items=${rng.int(1, 9)}, amount=${rng.int(1, 99999)}.${rng.int(10, 99)}, channel=${rng.pick(['APP', 'H5', 'MINI_PROGRAM', 'WEB'])}`);
      case 'created':
        return L(t, 'INFO', http(), SVC, `Order ${orderNo()} created, status=CREATED, cost=${rng.int(3, 250)}ms`);
      case 'published': {
        const b = rng.pick(W.hosts);
        return L(t, 'INFO', http(), PUB, `Sent OrderCreatedEvent orderNo=${orderNo()} SendResult [sendStatus=SEND_OK, msgId=0A14010B${rng.hex(24).toUpperCase()}, offsetMsgId=0A14000B00002A9F${rng.hex(16).toUpperCase()}, messageQueue=${mq('OrderTopic', b.brokerName, rng.int(0, 7))}, queueOffset=${rng.int(0, 9000000)}]`);
      }
      case 'consumed':
        return L(t, 'INFO', `ConsumeMessageThread_${rng.int(1, 20)}`, LSN, `Consumed PaymentResultEvent orderNo=${orderNo()} result=${rng.chance(0.97) ? 'PAID' : 'FAILED'} reconsumeTimes=0 cost=${rng.int(1, 80)}ms`);
      case 'access':
        return L(t, 'INFO', http(), ACC, `${rng.pick(['POST /api/v1/orders', 'GET /api/v1/orders/' + rng.int(1, 9999999), 'GET /actuator/health', 'PUT /api/v1/orders/cancel'])} status=${rng.chance(0.98) ? 200 : 500} cost=${rng.int(1, 900)}ms ip=10.30.${rng.int(0, 255)}.${rng.int(1, 254)}`);
      case 'pool':
        return L(t, 'DEBUG', 'HikariPool-1 housekeeper', HIK, `HikariPool-1 - Pool stats (total=20, active=${rng.int(0, 20)}, idle=${rng.int(0, 20)}, waiting=0)`);
      case 'job':
        return L(t, 'INFO', `scheduling-${rng.int(1, 4)}`, SCHED, `Closed ${rng.int(0, 40)} timed-out orders in ${rng.int(5, 400)}ms`);
      case 'dupStack': {
        const no = orderNo();
        return (
          L(t, 'ERROR', http(), DISP, 'Servlet.service() for servlet [dispatcherServlet] in context with path [] threw exception [Request processing failed; nested exception is org.springframework.dao.DataIntegrityViolationException: could not execute statement; SQL [n/a]; constraint [uk_order_no]; nested exception is org.hibernate.exception.ConstraintViolationException: could not execute statement] with root cause') +
          '\n' +
          APP_DUP_TOP_LF +
          `Caused by: java.sql.SQLIntegrityConstraintViolationException: Duplicate entry '${no}' for key 'uk_order_no'\n` +
          APP_DUP_CAUSE_LF +
          '\n'
        );
      }
      case 'readTimeout':
        return L(t, 'WARN', http(), INV, `Inventory reserve failed for order ${orderNo()}, falling back to async reservation`) + '\n' + APP_READ_TIMEOUT_LF + '\n';
      case 'sendFailed': {
        // MQClientException thrown by send(): "Send [3] times, still failed", the last attempt's timeout as its cause
        const b = rng.pick(W.hosts);
        const sent = [rng.pick(W.hosts).brokerName, rng.pick(W.hosts).brokerName, rng.pick(W.hosts).brokerName];
        st.eventLines += 2;
        return (
          L(t, 'ERROR', http(), PUB, `Send OrderCreatedEvent failed, orderNo=${orderNo()}`) +
          '\n' +
          `org.apache.rocketmq.client.exception.MQClientException: ${M('send-failed/still-failed', { attempts: 3, costMs: rng.int(3001, 3400), topic: 'OrderTopic', brokersSent: sent })}\n` +
          'See http://rocketmq.apache.org/docs/faq/ for further details.\n' +
          APP_SENDFAILED_LF +
          appSendFailedCause(`org.apache.rocketmq.remoting.exception.RemotingTimeoutException: ${M('rpc-timeout/wait-response', { addr: b.brokerAddr, timeoutMs: rng.int(900, 3000) })}`) +
          '\n'
        );
      }
      case 'busy': {
        const b = rng.pick(W.hosts);
        st.eventLines += 1;
        return (
          L(t, 'ERROR', http(), PUB, `Send OrderCreatedEvent failed, orderNo=${orderNo()}`) +
          '\n' +
          `org.apache.rocketmq.client.exception.MQBrokerException: ${responseExceptionMessage(2, M('busy-reply/timeout-clean-queue', { waitMs: rng.int(200, 209), queueSize: rng.int(0, 60) }), b.brokerAddr)}\n` +
          'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/\n' +
          APP_BUSY_LF +
          '\n'
        );
      }
      case 'callTimeout':
        st.eventLines += 1;
        return (
          L(t, 'ERROR', http(), PUB, `Send OrderCreatedEvent failed, orderNo=${orderNo()}`) +
          '\n' +
          `org.apache.rocketmq.remoting.exception.RemotingTooMuchRequestException: ${M('send-call-timeout/producer')}\n` +
          APP_CALLTIMEOUT_LF +
          '\n'
        );
    }
    return '';
  };
}

// ---------------------------------------------------------------------------------------------
// Writers
// ---------------------------------------------------------------------------------------------

class PlainOut {
  constructor(file) {
    this.fd = fs.openSync(file, 'w');
  }
  async write(s) {
    fs.writeSync(this.fd, s, null, 'latin1');
  }
  async close() {
    fs.closeSync(this.fd);
  }
}

class GzOut {
  constructor(file) {
    this.gz = zlib.createGzip({ level: 6 });
    this.ws = fs.createWriteStream(file, { highWaterMark: 1 << 20 });
    this.gz.pipe(this.ws);
    this.done = once(this.ws, 'close');
  }
  async write(s) {
    if (!this.gz.write(Buffer.from(s, 'latin1'))) await once(this.gz, 'drain');
  }
  async close() {
    this.gz.end();
    await this.done;
  }
}

/** Count '\n' in a string. */
function countLF(s) {
  let n = 0;
  for (let i = s.indexOf('\n'); i !== -1; i = s.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * Write records from gen until `budget` bytes, time running from t0 to t0 + span in
 * proportion to the bytes written (or, with `perSecond`, one record per second for span ms).
 * Returns the bytes written (uncompressed) and the line count.
 */
async function fill(out, budget, t0, span, gen, perSecond = false) {
  let written = 0;
  let lines = 0;
  let parts = [];
  let pending = 0;
  const flush = async () => {
    const chunk = parts.join('');
    lines += countLF(chunk);
    await out.write(chunk);
    parts = [];
    pending = 0;
  };
  const seconds = Math.floor(span / 1000);
  for (let i = 0; perSecond ? i < seconds : written < budget; i++) {
    const t = perSecond ? t0 + i * 1000 : t0 + Math.floor((span * written) / budget);
    const s = gen(t);
    parts.push(s);
    pending += s.length;
    written += s.length;
    if (pending >= CHUNK) await flush();
  }
  if (pending > 0) await flush();
  return { written, lines };
}

// Shares of a host's plain (not gzipped) bytes. The rest goes to the application log.
const PLAIN_SHARES = {
  broker: 0.17,
  client4: 0.13,
  client4old: 0.07,
  client5: 0.13,
  namesrv: 0.04,
  store: 0.03,
  remoting: 0.006,
  watermark: 0.008,
};
// Decompressed bytes of the gzipped rolled files, as shares of the host's on-disk budget.
const GZ_SHARES = { broker: 0.06, client5: 0.04 };
const WM_LINE = 57; // average watermark line length, for the time span

/** 2024-05-20 08:00:00 GMT+8: live files start here; rolled files end here */
const T0 = Date.UTC(2024, 4, 20, 0, 0, 0);

/**
 * Generate the set under `dir` (created; must be empty or absent).
 * Returns the manifest: files (relative path, bytes on disk, decompressed bytes, gz), totals,
 * line counts.
 */
export async function generate({ dir, size, seed = 1, hosts: nHosts = 4, onProgress = () => {} }) {
  fs.mkdirSync(dir, { recursive: true });
  const W = world(nHosts);
  const perHost = size / nHosts;
  const files = [];
  const totals = { lines: 0, eventLines: 0 };
  let done = 0;
  const t0 = process.hrtime.bigint();

  for (const h of W.hosts) {
    const base = path.join(dir, h.name);
    const rq = path.join(base, 'rocketmqlogs');
    const pay = path.join(base, 'payment-service', 'logs', 'rocketmqlogs');
    const app = path.join(base, 'order-service', 'logs');
    for (const d of [rq, path.join(rq, 'otherdays'), pay, path.join(pay, 'other_days'), app]) fs.mkdirSync(d, { recursive: true });

    // the host's time span, from watermark.log's share at 4 lines a second
    const span = Math.max(60, Math.round((perHost * 0.99 * PLAIN_SHARES.watermark) / (WM_LINE * 4))) * 1000;
    const rng = (name) => new Rng(hashSeed(String(seed), h.name, name));

    const jobs = [];
    const add = (rel, kind, factory, budget, start, len, gz = false) => jobs.push({ rel, kind, factory, budget, start, len, gz });

    // rolled, gzipped files first: their compressed size is taken from the plain budget
    const brokerLive = PLAIN_SHARES.broker;
    const client5Live = PLAIN_SHARES.client5;
    const gzBrokerSpan = Math.round((span * GZ_SHARES.broker) / brokerLive);
    const gzClient5Span = Math.round((span * GZ_SHARES.client5) / client5Live);
    add(`${h.name}/rocketmqlogs/otherdays/broker.1.log.gz`, 'broker', brokerGen, perHost * GZ_SHARES.broker, T0 - gzBrokerSpan, gzBrokerSpan, true);
    add(`${h.name}/payment-service/logs/rocketmqlogs/other_days/rocketmq_client-1.log.gz`, 'client5', client5Gen, perHost * GZ_SHARES.client5, T0 - gzClient5Span, gzClient5Span, true);

    // gzip jobs run concurrently with the plain ones (zlib works on the libuv pool)
    const gzResults = jobs.splice(0).map((j) => runJob(j, h, W, rng, totals, dir));
    const gzDone = await Promise.all(gzResults);
    let gzDisk = 0;
    for (const f of gzDone) {
      files.push(f);
      gzDisk += f.bytes;
      done += f.bytes;
      onProgress(done, size);
    }

    const plain = perHost - gzDisk;
    const oldSpan = Math.round((span * PLAIN_SHARES.client4old) / PLAIN_SHARES.client4);
    add(`${h.name}/rocketmqlogs/watermark.log`, 'watermark', watermarkGen, 0, T0 + 10000, span - 10000);
    add(`${h.name}/rocketmqlogs/broker.log`, 'broker', brokerGen, plain * PLAIN_SHARES.broker, T0, span);
    add(`${h.name}/rocketmqlogs/remoting.log`, 'remoting', remotingGen, plain * PLAIN_SHARES.remoting, T0, span);
    add(`${h.name}/rocketmqlogs/store.log`, 'store', storeGen, plain * PLAIN_SHARES.store, T0, span);
    add(`${h.name}/rocketmqlogs/namesrv.log`, 'namesrv', namesrvGen, plain * PLAIN_SHARES.namesrv, T0, span);
    add(`${h.name}/rocketmqlogs/rocketmq_client.log.1`, 'client4', client4Gen, plain * PLAIN_SHARES.client4old, T0 - oldSpan, oldSpan);
    add(`${h.name}/rocketmqlogs/rocketmq_client.log`, 'client4', client4Gen, plain * PLAIN_SHARES.client4, T0, span);
    add(`${h.name}/payment-service/logs/rocketmqlogs/rocketmq_client.log`, 'client5', client5Gen, plain * PLAIN_SHARES.client5, T0, span);
    // the application log takes what is left (watermark.log's size is known only once written)
    let used = 0;
    for (const j of jobs) {
      const f = await runJob(j, h, W, rng, totals, dir);
      files.push(f);
      used += f.bytes;
      done += f.bytes;
      onProgress(done, size);
    }
    const appBudget = Math.max(0, plain - used);
    const f = await runJob({ rel: `${h.name}/order-service/logs/order-service.log`, kind: 'app', factory: appGen, budget: appBudget, start: T0, len: span, gz: false }, h, W, rng, totals, dir);
    files.push(f);
    done += f.bytes;
    onProgress(done, size);
  }

  const bytes = files.reduce((s, f) => s + f.bytes, 0);
  const rawBytes = files.reduce((s, f) => s + f.rawBytes, 0);
  const gzBytes = files.filter((f) => f.gz).reduce((s, f) => s + f.bytes, 0);
  const gzRawBytes = files.filter((f) => f.gz).reduce((s, f) => s + f.rawBytes, 0);
  return {
    genVersion: GEN_VERSION,
    size,
    seed,
    hosts: nHosts,
    files,
    bytes,
    rawBytes,
    gzBytes,
    gzRawBytes,
    lines: totals.lines,
    eventLines: totals.eventLines,
    genSeconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
}

/**
 * A record of a busy 4.9.4 client's rocketmq_client.log where most lines are events: channel
 * closes and connects, response timeouts, NameServer switches, busy replies and route failures (one
 * line each, no stack traces), with a fifth of ordinary offset lines between them.
 */
function denseClientGen(rng, W, h, st) {
  const clientId = `${h.appIp}@${h.pidOrder}`;
  const H = headerWriter('rocketmq-client-inner');
  const L = (t, level, logger, msg) => `${H(t, level, '', logger)}${msg}\r\n`;
  const pick = chooser(rng, [
    [20, 'persist'],
    [18, 'closed'],
    [14, 'pipelineClose'],
    [12, 'pipelineConnect'],
    [16, 'waitTimeout'],
    [10, 'closeSocket'],
    [6, 'chosen'],
    [4, 'routeFail'],
  ]);
  return (t) => {
    const b = rng.pick(W.hosts);
    const a = b.brokerAddr;
    switch (pick()) {
      case 'persist':
        return L(t, 'INFO', 'RocketmqClient', `[persistAll] Group: ${rng.pick(CGROUPS)} ClientId: ${clientId} updateConsumeOffsetToBroker ${mq(rng.pick(TOPICS), b.brokerName, rng.int(0, 7))} ${rng.int(0, 90000000)}`);
      case 'closed':
        st.eventLines++;
        return L(t, 'INFO', 'RocketmqRemoting', `closeChannel: close the connection to remote address[${a}] result: true`);
      case 'pipelineClose':
        st.eventLines++;
        return L(t, 'INFO', 'RocketmqRemoting', `NETTY CLIENT PIPELINE: CLOSE ${a}`);
      case 'pipelineConnect':
        st.eventLines++;
        return L(t, 'INFO', 'RocketmqRemoting', `NETTY CLIENT PIPELINE: CONNECT  UNKNOWN => ${a}`);
      case 'waitTimeout':
        st.eventLines++;
        return L(t, 'WARN', 'RocketmqRemoting', `invokeSync: wait response timeout exception, the channel[${a}]`);
      case 'closeSocket':
        st.eventLines++;
        return L(t, 'WARN', 'RocketmqRemoting', `invokeSync: close socket because of timeout, 3000ms, ${a}`);
      case 'chosen':
        st.eventLines++;
        return L(t, 'INFO', 'RocketmqRemoting', `new name server is chosen. OLD: ${rng.pick(W.namesrvs)} , NEW: ${rng.pick(W.namesrvs)}. namesrvIndex = ${rng.int(1, 999)}`);
      case 'routeFail':
        st.eventLines++;
        return L(t, 'WARN', 'RocketmqClient', `get Topic [${rng.pick(TOPICS)}] RouteInfoFromNameServer is not exist value`);
    }
    return '';
  };
}

/**
 * The dense set: one client log of `size` bytes under app-1/logs/rocketmqlogs/ (about 80% of its
 * lines are events), spanning 4 h. Same manifest shape as generate().
 */
export async function generateDense({ dir, size, seed = 1 }) {
  const t0 = process.hrtime.bigint();
  const W = world(4);
  const h = { ...W.hosts[0], name: 'app-1' };
  const rel = 'app-1/logs/rocketmqlogs/rocketmq_client.log';
  fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
  const totals = { lines: 0, eventLines: 0 };
  const rng = (name) => new Rng(hashSeed(String(seed), 'dense', name));
  const f = await runJob({ rel, kind: 'client4', factory: denseClientGen, budget: size, start: T0, len: 4 * 3600 * 1000, gz: false }, h, W, rng, totals, dir);
  return {
    genVersion: GEN_VERSION,
    set: 'dense',
    size,
    seed,
    hosts: 1,
    files: [f],
    bytes: f.bytes,
    rawBytes: f.rawBytes,
    gzBytes: 0,
    gzRawBytes: 0,
    lines: totals.lines,
    eventLines: totals.eventLines,
    genSeconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
}

// ---------------------------------------------------------------------------------------------
// The consumer set: a busy consumer group's logs over days (issue 36: memory flat in the input's
// size for a week of consumer logs). Four push consumers of one group (CID_STOCK, 4.9.4 clients)
// on two masters' 8 queues each, with the lines the lab's consumer recordings show (wordings copied
// from samples/lab/consumer-*: [persistAll] offsets every 5 s per queue, heartbeats, the client's
// minute stats, consume exceptions with their stack, flow control, the broker's notifications and
// rebalances, pull timeouts), and each master's stats.log (BrokerStatsManager, one minute's lines
// for the topic, the group, its retry and schedule topics). The span grows with the size: a week
// for 1 GiB, so that per-minute state is tested against the input's length as well as its bytes.
// ---------------------------------------------------------------------------------------------

const C_GROUP = 'CID_STOCK';
const C_TOPIC = 'TopicOrder';
/** Consumer hosts and their queues: AVG over 2 brokers x 8 queues, 4 each. */
const C_HOSTS = [0, 1, 2, 3].map((i) => ({ name: `app-stock-0${i + 1}`, ip: `10.20.2.${41 + i}`, pid: 9224 + i * 131 }));
const C_BROKERS = [
  { name: 'mq-broker-a', brokerName: 'broker-a', ip: '10.20.1.21' },
  { name: 'mq-broker-b', brokerName: 'broker-b', ip: '10.20.1.22' },
];
const C_QUEUES = C_BROKERS.flatMap((b) => [0, 1, 2, 3, 4, 5, 6, 7].map((q) => ({ b, q })));
/** Messages per second on each queue (offsets grow with the set's clock). */
const C_RATE = 2;
/** The frames under a task of a Java 17 thread pool (the client's consume and callback executors). */
const POOL_FRAMES = [
  '\tat java.base/java.util.concurrent.Executors$RunnableAdapter.call(Executors.java:539)',
  '\tat java.base/java.util.concurrent.FutureTask.run(FutureTask.java:264)',
  '\tat java.base/java.util.concurrent.ThreadPoolExecutor.runWorker(ThreadPoolExecutor.java:1136)',
  '\tat java.base/java.util.concurrent.ThreadPoolExecutor$Worker.run(ThreadPoolExecutor.java:635)',
  '\tat java.base/java.lang.Thread.run(Thread.java:840)',
];
const CONSUME_STACK = [
  '\tat com.example.stock.OrderEventListener.handle(OrderEventListener.java:130)',
  '\tat com.example.stock.OrderEventListener.consumeMessage(OrderEventListener.java:88)',
  '\tat org.apache.rocketmq.client.impl.consumer.ConsumeMessageConcurrentlyService$ConsumeRequest.run(ConsumeMessageConcurrentlyService.java:402)',
  ...POOL_FRAMES,
].join('\n');
const PULL_STACK = [
  'For more information, please visit the url, http://rocketmq.apache.org/docs/faq/',
  '\tat org.apache.rocketmq.client.impl.MQClientAPIImpl$2.operationComplete(MQClientAPIImpl.java:765)',
  '\tat org.apache.rocketmq.remoting.netty.ResponseFuture.executeInvokeCallback(ResponseFuture.java:54)',
  '\tat org.apache.rocketmq.remoting.netty.NettyRemotingAbstract$2.run(NettyRemotingAbstract.java:321)',
  ...POOL_FRAMES,
].join('\n');

const cmq = (brokerName, q) => `MessageQueue [topic=${C_TOPIC}, brokerName=${brokerName}, queueId=${q}]`;
/** The committed offset of a queue at time t (the group keeps up). */
const cOffset = (t, q) => Math.floor((t - T0) / 1000) * C_RATE + q * 7;

/** rocketmq_client.log of one consumer instance (4.9.4, RocketmqClient's inner logger). */
function consumerClientGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-client-inner');
  const L = (t, level, logger, msg) => `${H(t, level, '', logger)}${msg}\n`;
  const cid = `${h.ip}@${h.pid}#${29159149740762 + h.pid}`;
  const mine = C_QUEUES.slice(h.index * 4, h.index * 4 + 4);
  let nextMinute = Math.ceil(T0 / 60000) * 60000;
  // DefaultMQPushConsumerImpl prints one flow-control line every 1000 times (its counter goes on).
  let flowControlTimes = 1;
  const pick = chooser(rng, [
    [80, 'persist'],
    [3, 'heartbeat'],
    [4, 'failed'],
    [0.6, 'flow'],
    [0.2, 'rebalance'],
    [0.2, 'pull'],
  ]);
  const messageExt = (t, { b, q }, off) =>
    `MessageExt [brokerName=${b.brokerName}, queueId=${q}, storeSize=443, queueOffset=${off}, sysFlag=0, bornTimestamp=${t - 60}, bornHost=/10.20.2.31:41946, storeTimestamp=${t - 57}, storeHost=/${b.ip}:10911, msgId=0A14${rng.hex(28).toUpperCase()}, commitLogOffset=${off * 443}, bodyCRC=1944984080, reconsumeTimes=${rng.int(0, 3)}, preparedTransactionOffset=0, toString()=Message{topic='${C_TOPIC}', flag=0, properties={MIN_OFFSET=0, MAX_OFFSET=${off + 1}, KEYS=evt-${off}, CONSUME_START_TIME=${t - 20}, UNIQ_KEY=7F0000016EAD4E0E2F2A18C6${rng.hex(8).toUpperCase()}, CLUSTER=DefaultCluster, TAGS=TagA}, body=[${rng.int(100, 900)} bytes], transactionId='null'}]`;
  return (t) => {
    let out = '';
    // The client's stats, once a minute per instance (ConsumerStatsManager, 4.x).
    while (t >= nextMinute) {
      const m = nextMinute;
      const n = 60 * C_RATE * 4;
      out +=
        L(m, 'INFO', 'RocketmqClient', `[PULL_RT] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, TIMES: ${n} AVGRT: ${(rng.int(100, 2000) / 1.7).toFixed(2)}`) +
        L(m, 'INFO', 'RocketmqClient', `[PULL_TPS] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, SUM: ${n} TPS: ${(n / 60).toFixed(2)} AVGPT: 1.00`) +
        L(m, 'INFO', 'RocketmqClient', `[CONSUME_RT] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, TIMES: ${n} AVGRT: ${(rng.int(500, 4000) / 100).toFixed(2)}`) +
        L(m, 'INFO', 'RocketmqClient', `[CONSUME_OK_TPS] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, SUM: ${n - 2} TPS: ${((n - 2) / 60).toFixed(2)} AVGPT: 1.00`);
      nextMinute += 60000;
    }
    const at = rng.pick(mine);
    switch (pick()) {
      case 'persist':
        st.eventLines += 4;
        return out + mine.map(({ b, q }) => L(t, 'INFO', 'RocketmqClient', `[persistAll] Group: ${C_GROUP} ClientId: ${cid} updateConsumeOffsetToBroker ${cmq(b.brokerName, q)} ${cOffset(t, q)}`)).join('');
      case 'heartbeat':
        return out + C_BROKERS.map((b) => L(t, 'INFO', 'RocketmqClient', `send heart beat to broker[${b.brokerName} 0 ${b.ip}:10911] success`)).join('');
      case 'failed': {
        const off = cOffset(t, at.q) + 3;
        const cause = `com.example.stock.OrderEventListener$StockException: inventory service call failed for order evt-${off}`;
        st.eventLines += 2;
        return (
          out +
          L(t, 'WARN', 'RocketmqClient', `consumeMessage exception: ${cause}, com.example.stock.OrderEventListener.handle(OrderEventListener.java:130) Group: ${C_GROUP} Msgs: [${messageExt(t, at, off)}] MQ: ${cmq(at.b.brokerName, at.q)}`) +
          `${cause}\n${CONSUME_STACK}\n\n` +
          L(t, 'WARN', 'RocketmqClient', `consumeMessage return null, Group: ${C_GROUP} Msgs: [${messageExt(t, at, off)}] MQ: ${cmq(at.b.brokerName, at.q)}`)
        );
      }
      case 'flow': {
        const min = cOffset(t, at.q);
        st.eventLines += 1;
        return out + L(t, 'WARN', 'RocketmqClient', `the cached message count exceeds the threshold 1000, so do flow control, minOffset=${min}, maxOffset=${min + 1000}, count=1001, size=0 MiB, pullRequest=PullRequest [consumerGroup=${C_GROUP}, messageQueue=${cmq(at.b.brokerName, at.q)}, nextOffset=${min + 1001}], flowControlTimes=${(flowControlTimes += 1000)}`);
      }
      case 'rebalance': {
        st.eventLines += 2;
        const set = mine.map(({ b, q }) => cmq(b.brokerName, q)).join(', ');
        return (
          out +
          L(t, 'INFO', 'RocketmqClient', `receive broker's notification[${at.b.ip}:10911], the consumer group: ${C_GROUP} changed, rebalance immediately`) +
          L(t + 100, 'INFO', 'RocketmqClient', `rebalanced result changed. allocateMessageQueueStrategyName=AVG, group=${C_GROUP}, topic=${C_TOPIC}, clientId=${cid}, mqAllSize=${C_QUEUES.length}, cidAllSize=${C_HOSTS.length}, rebalanceResultSize=${mine.length}, rebalanceResultSet=[${set}]`)
        );
      }
      case 'pull': {
        const off = cOffset(t, at.q);
        st.eventLines += 1;
        return (
          out +
          L(t, 'WARN', 'RocketmqClient', 'execute the pull request exception') +
          `org.apache.rocketmq.client.exception.MQClientException: wait response from ${at.b.ip}:10911 timeout :30000ms. Request: RemotingCommand [code=11, language=JAVA, version=401, opaque=${rng.int(100, 900000)}, flag(B)=0, remark=null, extFields={queueId=${at.q}, maxMsgNums=32, sysFlag=3, suspendTimeoutMillis=15000, commitOffset=${off}, topic=${C_TOPIC}, queueOffset=${off + 1}, expressionType=TAG, subVersion=1796471472551, consumerGroup=${C_GROUP}}, serializeTypeCurrentRPC=JSON]\n${PULL_STACK}\n\n`
        );
      }
    }
    return out;
  };
}

/** stats.log of one master: one minute's BrokerStatsManager lines per record (4.9.4 wordings). */
function consumerStatsGen(rng, W, h, st) {
  const H = headerWriter('rocketmq-server-nothread');
  const L = (t, msg) => `${H(t, 'INFO', '', '')}${msg}\n`;
  return (t) => {
    const puts = 60 * C_RATE * 8;
    const back = rng.int(0, 12);
    const sched = Math.max(0, back - rng.int(0, 2));
    const fall = t % 300000 === 0 ? [0, 1, 2, 3, 4, 5, 6, 7].map((q) => L(t, `[GROUP_GET_FALL_TIME] [${q}@${C_TOPIC}@${C_GROUP}] Stats Every 5 Minutes, Value: ${rng.int(0, 5)}`)).join('') : '';
    st.eventLines += 7;
    return (
      L(t, `[BROKER_PUT_NUMS] [DefaultCluster] Stats In One Minute, SUM: ${puts + back} TPS: ${((puts + back) / 60).toFixed(2)} AVGPT: 0.00`) +
      L(t, `[BROKER_GET_NUMS] [DefaultCluster] Stats In One Minute, SUM: ${puts} TPS: ${(puts / 60).toFixed(2)} AVGPT: 0.00`) +
      L(t, `[TOPIC_PUT_NUMS] [${C_TOPIC}] Stats In One Minute, SUM: ${puts} TPS: ${(puts / 60).toFixed(2)} AVGPT: 1.00`) +
      L(t, `[GROUP_GET_NUMS] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, SUM: ${puts} TPS: ${(puts / 60).toFixed(2)} AVGPT: 1.00`) +
      L(t, `[SNDBCK_PUT_NUMS] [${C_TOPIC}@${C_GROUP}] Stats In One Minute, SUM: ${back} TPS: ${(back / 60).toFixed(2)} AVGPT: 1.00`) +
      L(t, `[TOPIC_PUT_NUMS] [SCHEDULE_TOPIC_XXXX] Stats In One Minute, SUM: ${sched} TPS: ${(sched / 60).toFixed(2)} AVGPT: 1.00`) +
      L(t, `[TOPIC_PUT_NUMS] [%RETRY%${C_GROUP}] Stats In One Minute, SUM: ${sched} TPS: ${(sched / 60).toFixed(2)} AVGPT: 1.00`) +
      fall
    );
  };
}

/**
 * The consumer set under `dir`: four consumer instances' client logs (90 % of `size`) and two
 * masters' stats.log (one line group a minute over the span), the span a week per GiB (at least a
 * day). Same manifest shape as generate().
 */
export async function generateConsumer({ dir, size, seed = 1 }) {
  const t0 = process.hrtime.bigint();
  const W = world(2);
  const span = Math.max(1, Math.round((7 * size) / 1024 ** 3)) * 86400000;
  const totals = { lines: 0, eventLines: 0 };
  const files = [];
  const rng = (name) => new Rng(hashSeed(String(seed), 'consumer', name));
  for (const [index, c] of C_HOSTS.entries()) {
    const rel = `${c.name}/logs/rocketmqlogs/rocketmq_client.log`;
    fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    files.push(await runJob({ rel, kind: 'client4', factory: consumerClientGen, budget: (size * 0.9) / C_HOSTS.length, start: T0, len: span, gz: false }, { ...c, index }, W, rng, totals, dir));
  }
  for (const b of C_BROKERS) {
    const rel = `${b.name}/logs/rocketmqlogs/stats.log`;
    fs.mkdirSync(path.join(dir, path.dirname(rel)), { recursive: true });
    const file = path.join(dir, rel);
    const out = new PlainOut(file);
    const st = stats();
    const gen = consumerStatsGen(rng(rel), W, b, st);
    let parts = [];
    let written = 0;
    let lines = 0;
    for (let t = T0 + 60000; t < T0 + span; t += 60000) {
      const s = gen(t);
      parts.push(s);
      written += s.length;
      if (parts.length >= 2000) {
        const chunk = parts.join('');
        lines += countLF(chunk);
        await out.write(chunk);
        parts = [];
      }
    }
    const chunk = parts.join('');
    lines += countLF(chunk);
    await out.write(chunk);
    await out.close();
    totals.lines += lines;
    totals.eventLines += st.eventLines;
    files.push({ path: rel, kind: 'stats', gz: false, bytes: fs.statSync(file).size, rawBytes: written, lines, eventLines: st.eventLines });
  }
  const bytes = files.reduce((n, f) => n + f.bytes, 0);
  return {
    genVersion: GEN_VERSION,
    set: 'consumer',
    size,
    seed,
    hosts: C_HOSTS.length + C_BROKERS.length,
    spanDays: span / 86400000,
    files,
    bytes,
    rawBytes: files.reduce((n, f) => n + f.rawBytes, 0),
    gzBytes: 0,
    gzRawBytes: 0,
    lines: totals.lines,
    eventLines: totals.eventLines,
    genSeconds: Number(process.hrtime.bigint() - t0) / 1e9,
  };
}

async function runJob(j, h, W, rng, totals, dir) {
  const file = path.join(dir, j.rel);
  const out = j.gz ? new GzOut(file) : new PlainOut(file);
  const st = stats();
  const gen = j.factory(rng(j.rel), W, h, st);
  const { written, lines } = await fill(out, Math.floor(j.budget), j.start, j.len, gen, j.kind === 'watermark');
  await out.close();
  totals.lines += lines;
  totals.eventLines += st.eventLines;
  return { path: j.rel, kind: j.kind, gz: j.gz, bytes: fs.statSync(file).size, rawBytes: written, lines, eventLines: st.eventLines };
}

// ---------------------------------------------------------------------------------------------
// Standalone use
// ---------------------------------------------------------------------------------------------

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const opt = (name, dflt) => {
    const i = args.indexOf(name);
    return i >= 0 && i + 1 < args.length ? args[i + 1] : dflt;
  };
  const out = opt('--out', null);
  if (!out || args.includes('--help') || args.includes('-h')) {
    process.stderr.write('usage: node scripts/bench-gen.mjs --out DIR [--size 1GiB] [--seed 1] [--hosts 4]\n');
    process.exit(out ? 0 : 2);
  }
  if (fs.existsSync(out) && fs.readdirSync(out).length > 0) {
    process.stderr.write(`bench-gen: ${out} is not empty\n`);
    process.exit(2);
  }
  const m = await generate({ dir: out, size: parseSize(opt('--size', '1GiB')), seed: Number(opt('--seed', '1')), hosts: Number(opt('--hosts', '4')) });
  process.stdout.write(`${JSON.stringify({ ...m, files: m.files.length }, null, 2)}\n`);
}
