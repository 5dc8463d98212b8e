/*
 * A Kafka cluster for the tests: librdkafka's mock brokers speak the real wire protocol on
 * 127.0.0.1. Usage: mock_cluster <brokers> <topic> <partitions>. Prints the bootstrap servers on
 * one line, then obeys stdin, answering "ok <command>" to each: "down <broker-id>",
 * "up <broker-id>", "topic <name> <partitions>"; "quit" or end of input stops it. Partition p
 * is led by broker p % brokers + 1 (the mock would pick at random), so a test knows whom to stop.
 */
#include <librdkafka/rdkafka.h>
#include <librdkafka/rdkafka_mock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static rd_kafka_resp_err_t create_topic(rd_kafka_mock_cluster_t *cluster, const char *name, int partitions, int brokers) {
  rd_kafka_resp_err_t err = rd_kafka_mock_topic_create(cluster, name, partitions, 1);
  for (int p = 0; !err && p < partitions; p++) err = rd_kafka_mock_partition_set_leader(cluster, name, p, p % brokers + 1);
  return err;
}

int main(int argc, char **argv) {
  char error[256], command[16], name[250];
  int n, brokers;
  if (argc != 4) return fprintf(stderr, "usage: mock_cluster <brokers> <topic> <partitions>\n"), 2;
  rd_kafka_conf_t *conf = rd_kafka_conf_new();
  /* This handle only hosts the mock; its notice about having no brokers of its own is noise. */
  rd_kafka_conf_set(conf, "log_level", "3", error, sizeof error);
  rd_kafka_t *rk = rd_kafka_new(RD_KAFKA_PRODUCER, conf, error, sizeof error);
  if (!rk) return fprintf(stderr, "%s\n", error), 1;
  brokers = atoi(argv[1]);
  rd_kafka_mock_cluster_t *cluster = rd_kafka_mock_cluster_new(rk, brokers);
  /* Topics are made here: kafkajs's createTopics fails on the mock's controller id (0). */
  if (!cluster || create_topic(cluster, argv[2], atoi(argv[3]), brokers)) return fprintf(stderr, "mock cluster failed\n"), 1;
  printf("%s\n", rd_kafka_mock_cluster_bootstraps(cluster));
  fflush(stdout);
  while (scanf("%15s", command) == 1 && strcmp(command, "quit") != 0) {
    rd_kafka_resp_err_t err = RD_KAFKA_RESP_ERR_NO_ERROR;
    if (!strcmp(command, "topic") && scanf("%249s %d", name, &n) == 2) err = create_topic(cluster, name, n, brokers);
    else if (!strcmp(command, "down") && scanf("%d", &n) == 1) err = rd_kafka_mock_broker_set_down(cluster, n);
    else if (!strcmp(command, "up") && scanf("%d", &n) == 1) err = rd_kafka_mock_broker_set_up(cluster, n);
    else break;
    printf("%s %s\n", err ? "error" : "ok", err ? rd_kafka_err2str(err) : command);
    fflush(stdout);
  }
  rd_kafka_mock_cluster_destroy(cluster);
  rd_kafka_destroy(rk);
  return 0;
}
