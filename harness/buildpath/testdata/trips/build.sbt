ThisBuild / scalaVersion := "2.13.14"
ThisBuild / organization := "com.acme"

val sparkVersion = "4.1.1"

lazy val common = (project in file("common"))
  .settings(
    name := "trips-common",
    libraryDependencies += "org.jspecify" % "jspecify" % "1.0.0"
  )

lazy val udfs = (project in file("udfs"))
  .dependsOn(common % "compile->compile;test->test")
  .settings(
    name := "trips-udfs",
    libraryDependencies ++= Seq(
      "org.apache.spark" %% "spark-sql" % sparkVersion % "provided",
      "com.lihaoyi" %% "sourcecode" % "0.4.2",
      "org.scalatest" %% "scalatest" % "3.2.19" % Test
    )
  )

lazy val root = (project in file("."))
  .aggregate(common, udfs)
