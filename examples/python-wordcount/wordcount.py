"""The classic word count over RDD transformations."""
from operator import add

from pyspark.sql import SparkSession


def main(path):
    spark = SparkSession.builder.appName("wordcount").getOrCreate()
    lines = spark.sparkContext.textFile(path)
    counts = (
        lines.flatMap(lambda line: line.split(" "))
        .map(lambda word: (word, 1))
        .reduceByKey(add)
    )
    for word, count in counts.collect():
        print(word, count)


if __name__ == "__main__":
    import sys

    main(sys.argv[1])
