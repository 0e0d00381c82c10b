object Broken {
  val f = udf((x: Double) => x * 2.0
  def g(: Int = 1
}
